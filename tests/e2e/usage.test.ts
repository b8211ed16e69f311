// Acceptance (usage): a report posted the way the desktop app does (plain HTTP with a token from
// /api/v1/auth/token) shows on the demo user's overview and usage tabs and in the CSV export.
import { randomUUID } from "node:crypto";
import { signIn } from "./browser.ts";
import { expect, test } from "./fixtures.ts";

test("a reported model call appears on the overview, the usage tab and in the CSV", async ({ page, baseURL }) => {
  const tokenResponse = await fetch(`${baseURL}/api/v1/auth/token`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "CF-Connecting-IP": "198.19.0.77" },
    body: JSON.stringify({ email: "demo@modelify.dev", password: "Modelify-Demo-2026" }),
  });
  expect(tokenResponse.status).toBe(200);
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
  const posted = await fetch(`${baseURL}/api/v1/usage`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${access_token}` },
    body: JSON.stringify(report),
  });
  expect(posted.status).toBe(202);
  expect(await posted.json()).toEqual({ accepted: 1 });

  await signIn(page, "demo@modelify.dev", "Modelify-Demo-2026");
  await page.waitForURL((url) => url.pathname === "/dashboard");
  // The consumer writes within about a second: reload until the report is there.
  await expect(async () => {
    await page.reload();
    await expect(page.getByTestId("recent-activity").getByText(model)).toBeVisible({ timeout: 500 });
  }).toPass({ timeout: 10_000 });

  await page.goto("/dashboard/usage?view=services");
  await page.getByTestId("services-table").getByText(model).waitFor();
  await page
    .getByTestId("services-table")
    .getByRole("row", { name: new RegExp(model) })
    .getByText("$0.12")
    .waitFor();

  const csv = await page.request.get("/dashboard/usage.csv");
  expect(csv.status()).toBe(200);
  const text = await csv.text();
  expect(text).toMatch(new RegExp(`"${model}","e2e-provider",1,"100.0",876,4321,"0.1234"`));
});
