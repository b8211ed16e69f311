// Issue 49, any range and any slice: on the usage tab a custom range of days (the GET form) and a
// grouping (links) are chosen, kept in the address, and shown, with JavaScript and without; each
// group links to the request log filtered to it, and the tidy exports to the same range.
import { randomUUID } from "node:crypto";
import { baseUrl, clientContextOptions, hydrated, markDocument, sameDocument, signUpAndConfirm, uniqueEmail } from "./browser.ts";
import { expect, test } from "./fixtures.ts";

const addDays = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

async function report(email: string, reports: Array<Record<string, unknown>>) {
  const tokenResponse = await fetch(`${baseUrl()}/api/v1/auth/token`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "CF-Connecting-IP": `198.19.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}` },
    body: JSON.stringify({ email, password: "Sunny-Day-42" }),
  });
  expect(tokenResponse.status).toBe(200);
  const { access_token } = (await tokenResponse.json()) as { access_token: string };
  const posted = await fetch(`${baseUrl()}/api/v1/usage`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${access_token}` },
    body: JSON.stringify({ reports }),
  });
  expect(posted.status).toBe(202);
}

for (const javaScriptEnabled of [false, true]) {
  test(`a custom range and a grouping are chosen, shown and kept in the address (JavaScript ${javaScriptEnabled ? "on" : "off"})`, async ({
    page,
    browser,
  }) => {
    const email = uniqueEmail("ranges");
    await signUpAndConfirm(page, email);
    const context = javaScriptEnabled
      ? page.context()
      : await browser.newContext({ ...clientContextOptions(), javaScriptEnabled, storageState: await page.context().storageState() });
    const client = javaScriptEnabled ? page : await context.newPage();
    try {
      await client.goto("/dashboard/usage");
      // The form's bounds are the account's days: today is its last.
      const today = (await client.getByRole("textbox", { name: "To", exact: true }).getAttribute("max"))!;
      const earlier = addDays(today, -2);
      const old = { model_name: `old-${randomUUID().slice(0, 6)}`, model_provider: "anthropic" };
      const recent = { model_name: `new-${randomUUID().slice(0, 6)}`, model_provider: "openai" };
      const base = { request_type: "chat", tokens_input: 10, tokens_output: 5, cost_usd: 0.25, request_duration_ms: 300, success: true };
      await report(email, [
        { ...base, ...old, report_id: randomUUID(), occurred_at: `${earlier}T12:00:00Z` },
        { ...base, ...recent, report_id: randomUUID(), occurred_at: new Date().toISOString() },
      ]);
      // The consumer stores them within about a second.
      await expect(async () => {
        await client.goto("/dashboard/usage?range=7d");
        await expect(client.getByTestId("groups-table").getByRole("row")).toHaveCount(4, { timeout: 500 });
      }).toPass({ timeout: 15_000 });
      if (javaScriptEnabled) {
        await hydrated(client);
        await client.evaluate(markDocument);
      }

      await client.getByRole("textbox", { name: "From", exact: true }).fill(earlier);
      await client.getByRole("textbox", { name: "To", exact: true }).fill(earlier);
      await client.getByRole("button", { name: "Apply range" }).click();
      await expect(client).toHaveURL(new RegExp(`[?&]from=${earlier}&to=${earlier}`));
      const table = client.getByTestId("groups-table");
      await expect(table.getByRole("rowheader", { name: old.model_name })).toBeVisible();
      await expect(table.getByText(recent.model_name)).toHaveCount(0);
      await expect(client.getByTestId("total-requests")).toHaveText("1");

      await client.getByRole("navigation", { name: "Group by" }).getByRole("link", { name: "Provider" }).click();
      await expect(client).toHaveURL(/group_by=provider/);
      await expect(client).toHaveURL(new RegExp(`from=${earlier}&to=${earlier}`));
      await expect(table.getByRole("rowheader", { name: "anthropic" })).toBeVisible();
      await expect(table.getByRole("link", { name: "Requests of anthropic" })).toHaveAttribute(
        "href",
        `/dashboard/usage/requests?from=${earlier}&to=${earlier}&provider=anthropic`,
      );
      await expect(client.getByTestId("tidy-exports").getByRole("link", { name: "Each model" })).toHaveAttribute(
        "href",
        `/dashboard/usage/models.csv?from=${earlier}&to=${earlier}`,
      );
      // With JavaScript the choices went through the router, not a new document.
      if (javaScriptEnabled) expect(await client.evaluate(sameDocument)).toBe(true);

      // A range that ends before it starts is refused with the reason, the form still there.
      await client.goto(`/dashboard/usage?from=${today}&to=${earlier}`);
      await expect(client.getByRole("alert")).toContainText(`The end date (${earlier}) is before the start date (${today}).`);
      await expect(client.getByRole("button", { name: "Apply range" })).toBeVisible();
    } finally {
      if (!javaScriptEnabled) await context.close();
    }
  });
}
