// Acceptance (usage): a report posted the way the desktop app does (plain HTTP with a token from
// /api/v1/auth/token) shows on the demo user's overview and usage tabs and in the CSV export.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, test } from "node:test";
import type { BrowserContext } from "playwright-core";
import { BASE_URL, firstPage, launch, signIn } from "./browser.ts";

let context: BrowserContext | undefined;
after(async () => {
  await context?.close();
});

test("a reported model call appears on the overview, the usage tab and in the CSV", async () => {
  const tokenResponse = await fetch(`${BASE_URL}/api/v1/auth/token`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "CF-Connecting-IP": "198.19.0.77" },
    body: JSON.stringify({ email: "demo@modelify.dev", password: "Modelify-Demo-2026" }),
  });
  assert.equal(tokenResponse.status, 200);
  const { access_token } = (await tokenResponse.json()) as { access_token: string };

  const model = `e2e-model-${randomUUID().slice(0, 8)}`;
  const report = {
    report_id: randomUUID(),
    model_name: model,
    model_provider: "e2e-provider",
    request_type: "chat",
    tokens_used: 4321,
    tokens_input: 4000,
    tokens_output: 321,
    cost_usd: 0.1234,
    request_duration_ms: 876,
    success: true,
    metadata: { conversation_id: "e2e-conversation" },
    app_version: "1.0.5",
    app_instance_id: "e2e",
  };
  const posted = await fetch(`${BASE_URL}/api/v1/usage`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${access_token}` },
    body: JSON.stringify(report),
  });
  assert.equal(posted.status, 202);
  assert.deepEqual(await posted.json(), { accepted: 1 });

  context = await launch();
  const page = await firstPage(context);
  await signIn(page, "demo@modelify.dev", "Modelify-Demo-2026");
  await page.waitForURL((url) => url.pathname === "/dashboard");
  // The consumer writes within about a second: reload until the report is there.
  for (let i = 0; i < 20 && !(await page.getByTestId("recent-activity").getByText(model).count()); i++) {
    await page.waitForTimeout(500);
    await page.reload();
  }
  await page.getByTestId("recent-activity").getByText(model).waitFor();

  await page.goto("/dashboard/usage?view=services");
  await page.getByTestId("services-table").getByText(model).waitFor();
  await page.getByTestId("services-table").getByRole("row", { name: new RegExp(model) }).getByText("$0.12").waitFor();

  const csv = await page.request.get("/dashboard/usage.csv");
  assert.equal(csv.status(), 200);
  const text = await csv.text();
  assert.match(text, new RegExp(`"${model}","e2e-provider",1,"100.0",876,4321,"0.1234"`));
});
