// Acceptance (issue 27, live usage): the usage tab opens a WebSocket to the account's ledger after
// hydration, and a report posted the way the desktop app does changes its figures without a reload.
// Without JavaScript the page is the server's and opens nothing.
import { randomUUID } from "node:crypto";
import type { WebSocket, WebSocketRoute } from "@playwright/test";
import { clientContextOptions, hydrated, markDocument, sameDocument, signUpAndConfirm, uniqueEmail } from "./browser.ts";
import { expect, test } from "./fixtures.ts";

const PASSWORD = "Sunny-Day-42";

async function tokenFor(baseURL: string, email: string): Promise<string> {
  const response = await fetch(`${baseURL}/api/v1/auth/token`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "CF-Connecting-IP": "198.19.0.78" },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { access_token: string }).access_token;
}

async function postReport(baseURL: string, token: string, overrides: Record<string, unknown> = {}) {
  const response = await fetch(`${baseURL}/api/v1/usage`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
    body: JSON.stringify({
      report_id: randomUUID(),
      model_name: "gpt-4o",
      model_provider: "openai",
      request_type: "chat",
      tokens_used: 1500,
      tokens_input: 1000,
      tokens_output: 500,
      cost_usd: 0.5,
      request_duration_ms: 900,
      success: true,
      metadata: { conversation_id: "live" },
      app_version: "1.0.5",
      app_instance_id: "e2e-live",
      ...overrides,
    }),
  });
  expect(response.status).toBe(202);
}

test("the usage tab's totals follow a new report without a reload", async ({ page, baseURL }) => {
  const email = uniqueEmail("live");
  await signUpAndConfirm(page, email, PASSWORD);
  const token = await tokenFor(baseURL!, email);

  const sockets: WebSocket[] = [];
  page.on("websocket", (ws) => sockets.push(ws));
  await page.goto("/dashboard/usage");
  await hydrated(page);
  await expect(page.getByTestId("live-status")).toHaveAttribute("data-connected", "true");
  await expect(page.getByTestId("live-status")).toHaveText("Live");
  await expect(page.getByTestId("total-requests")).toHaveText("0");
  expect(sockets.map((ws) => new URL(ws.url()).pathname)).toEqual(["/dashboard/usage/live"]);
  // Marks this document: a reload would lose it.
  await page.evaluate(markDocument);

  await postReport(baseURL!, token);
  await expect(page.getByTestId("total-requests")).toHaveText("1");
  await expect(page.getByTestId("total-spend")).toHaveText("$0.50");
  await expect(page.getByTestId("live-status")).toContainText(/^Updated \d/);

  await postReport(baseURL!, token, { model_name: "claude-sonnet-4", model_provider: "anthropic", cost_usd: 0.25 });
  await expect(page.getByTestId("total-requests")).toHaveText("2");
  await expect(page.getByTestId("total-spend")).toHaveText("$0.75");
  expect(await page.evaluate(sameDocument)).toBe(true);
  // Still the one socket: no reconnect was needed.
  expect(sockets).toHaveLength(1);

  // Leaving the tab (a client-side navigation) closes the socket.
  const closed = sockets[0]!.isClosed() ? Promise.resolve() : sockets[0]!.waitForEvent("close");
  await page.getByRole("link", { name: "Overview" }).first().click();
  await page.waitForURL((url) => url.pathname === "/dashboard");
  await closed;
  expect(await page.evaluate(sameDocument)).toBe(true);
});

test("after the socket drops, the tab reconnects and catches up on the reports it missed", async ({ page, baseURL }) => {
  const email = uniqueEmail("live-retry");
  await signUpAndConfirm(page, email, PASSWORD);
  const token = await tokenFor(baseURL!, email);

  // The first socket reaches the ledger; then the line goes down (the open socket is cut, and so
  // is every new attempt) until the report has been stored; then sockets reach the ledger again.
  let lineDown = false;
  let attempts = 0;
  let current: { page: WebSocketRoute; server: WebSocketRoute } | null = null;
  await page.routeWebSocket("**/dashboard/usage/live", async (route) => {
    attempts++;
    if (lineDown) return route.close({ code: 1011, reason: "line down" });
    current = { page: route, server: route.connectToServer() };
  });
  await page.goto("/dashboard/usage");
  await hydrated(page);
  await expect(page.getByTestId("live-status")).toHaveAttribute("data-connected", "true");
  await expect(page.getByTestId("total-requests")).toHaveText("0");
  await page.evaluate(markDocument);

  lineDown = true;
  const cut = current as { page: WebSocketRoute; server: WebSocketRoute } | null;
  await cut?.server.close();
  await cut?.page.close({ code: 1011, reason: "line down" });
  await expect(page.getByTestId("live-status")).toHaveAttribute("data-connected", "false");
  await postReport(baseURL!, token);
  // Stored in the ledger (the entitlements read it) while the page had no socket to hear of it.
  await expect(async () => {
    const response = await fetch(`${baseURL}/api/v1/entitlements`, { headers: { Authorization: `Bearer ${token}` } });
    const { windows } = (await response.json()) as { windows: Array<{ window: string; unit: string; used: number }> };
    expect(windows.find((w) => w.window === "month" && w.unit === "requests")?.used).toBe(1);
  }).toPass({ timeout: 10_000 });
  lineDown = false;

  await expect(page.getByTestId("total-requests")).toHaveText("1", { timeout: 20_000 });
  await expect(page.getByTestId("live-status")).toHaveAttribute("data-connected", "true");
  expect(attempts).toBeGreaterThan(1);
  expect(await page.evaluate(sameDocument)).toBe(true);
});

test("without JavaScript the usage tab is the server's page and opens no socket", async ({ page, browser }) => {
  await signUpAndConfirm(page, uniqueEmail("live-nojs"), PASSWORD);
  const context = await browser.newContext({ ...clientContextOptions(), javaScriptEnabled: false, storageState: await page.context().storageState() });
  try {
    const plain = await context.newPage();
    const sockets: string[] = [];
    plain.on("websocket", (ws) => sockets.push(ws.url()));
    await plain.goto("/dashboard/usage");
    await expect(plain.getByRole("heading", { name: "Usage Analytics" })).toBeVisible();
    await expect(plain.getByTestId("total-requests")).toHaveText("0");
    await expect(plain.getByTestId("live-status")).toHaveText("");
    expect(sockets).toEqual([]);
  } finally {
    await context.close();
  }
});
