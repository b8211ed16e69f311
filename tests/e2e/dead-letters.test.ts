// Dashboard → Dead Letters in a browser, on real dead letters: a site of its own sends its mail to
// a provider stand-in that fails, so two password-reset mails use up their retries and are
// dead-lettered by the consumer (with the admins' alert, which fails the same way). The admin
// finds them in the tab, the provider recovers, one is replayed (the provider gets it exactly
// once, under its idempotency key) and another is discarded without JavaScript after the
// confirmation; a non-admin gets the 404. Screenshots at 1280 and 390 px go to screenshots/.
import { mkdirSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser, Page } from "@playwright/test";
import { axeFindings } from "./axe.ts";
import { HYDRATION_PROBE, hydrated, nextClientAddress, signIn } from "./browser.ts";
import { expect, test } from "./fixtures.ts";
import { startTestSite, type TestSite } from "./sites.ts";

const ADMIN = { email: "admin@modelify.dev", password: "Modelify-Admin-2026" };
const DEMO = { email: "demo@modelify.dev", password: "Modelify-Demo-2026" };

/** A Resend-like provider that answers 500 while `failing`, and records every call's idempotency key. */
function mailProvider() {
  const calls: Array<{ key: string; ok: boolean }> = [];
  const state = { failing: true };
  const server: Server = createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      const ok = !state.failing;
      calls.push({ key: String(request.headers["idempotency-key"] ?? ""), ok });
      response.writeHead(ok ? 200 : 500, { "Content-Type": "application/json" });
      response.end(ok ? JSON.stringify({ id: `stub-${calls.length}` }) : '{"error":"down"}');
    });
  });
  return {
    calls,
    state,
    start: () =>
      new Promise<string>((resolve) => server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}/emails`))),
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const provider = mailProvider();
let site: TestSite;

test.describe.configure({ mode: "serial" });

// biome-ignore lint/correctness/noEmptyPattern: Playwright requires the object pattern
test.beforeAll(async ({}, testInfo) => {
  test.setTimeout(120_000);
  const url = await provider.start();
  site = await startTestSite(`dead-letters-w${testInfo.workerIndex}`, { MAIL_API_URL: url, MAIL_API_KEY: "e2e-provider-key" });
});
test.afterAll(async () => {
  await site?.stop();
  await provider.stop();
});

async function clientOn(browser: Browser, viewport = { width: 1280, height: 900 }, javaScriptEnabled = true): Promise<Page> {
  const context = await browser.newContext({
    baseURL: site.baseUrl,
    viewport,
    javaScriptEnabled,
    extraHTTPHeaders: { "CF-Connecting-IP": nextClientAddress() },
  });
  await context.addInitScript(HYDRATION_PROBE);
  return context.newPage();
}

async function signedIn(browser: Browser, who: { email: string; password: string }, viewport?: { width: number; height: number }, javaScriptEnabled = true) {
  const page = await clientOn(browser, viewport, javaScriptEnabled);
  await signIn(page, who.email, who.password);
  await page.waitForURL((url) => url.pathname === "/dashboard");
  return page;
}

const cards = (page: Page) => page.getByTestId("dead-letters").getByRole("listitem");

test("two mails die, the admin replays one (sent exactly once) and discards another", async ({ browser }) => {
  test.setTimeout(120_000);
  // Two password resets: their mails fail at the provider until their retries are used up.
  const visitor = await clientOn(browser);
  for (const email of [ADMIN.email, DEMO.email]) {
    await visitor.goto("/auth?mode=forgot-password");
    await visitor.getByLabel("Email").fill(email);
    await visitor.getByRole("button", { name: "Send Reset Link" }).click();
    await expect(visitor.getByText("Password reset email sent! Check your inbox.")).toBeVisible();
  }

  const admin = await signedIn(browser, ADMIN);
  await admin.getByRole("link", { name: "Dead Letters" }).first().click();
  await admin.waitForURL((url) => url.pathname === "/dashboard/admin/dead-letters");
  // The consumer retries each mail, then the dead-letter queue records it: reload until both are in.
  await expect(async () => {
    await admin.reload();
    expect(await cards(admin).filter({ hasText: "mail.send" }).count()).toBeGreaterThanOrEqual(2);
  }).toPass({ timeout: 60_000, intervals: [1000] });
  const failedKeys = new Set(provider.calls.map((c) => c.key));
  expect(provider.calls.every((c) => !c.ok)).toBe(true);
  await expect(cards(admin).first()).toContainText("Retries used up");
  await expect(cards(admin).first()).toContainText("Attempts");

  // The accessibility sweep sees this page empty: here it is checked with its cards, at both widths.
  expect(await axeFindings(admin, "admin")).toEqual([]);
  mkdirSync("screenshots", { recursive: true });
  await admin.screenshot({ path: "screenshots/admin-dead-letters-desktop.png", fullPage: true });
  const narrow = await signedIn(browser, ADMIN, { width: 390, height: 844 });
  await narrow.goto("/dashboard/admin/dead-letters");
  await expect(cards(narrow).first()).toBeVisible();
  expect(await axeFindings(narrow, "admin")).toEqual([]);
  await narrow.screenshot({ path: "screenshots/admin-dead-letters-mobile.png", fullPage: true });
  await narrow.context().close();

  // The provider is back: replay one. It reaches the provider once, under the id it failed with.
  provider.state.failing = false;
  const before = await cards(admin).count();
  await hydrated(admin);
  await cards(admin).filter({ hasText: "mail.send" }).first().getByRole("button", { name: "Replay" }).click();
  await expect(admin.getByRole("status").filter({ hasText: "Replayed: the mail.send message is back on the queue." })).toBeVisible();
  await expect(cards(admin)).toHaveCount(before - 1);
  await expect.poll(() => provider.calls.filter((c) => c.ok).length, { timeout: 15_000 }).toBe(1);
  const sent = provider.calls.find((c) => c.ok)!;
  expect(failedKeys.has(sent.key)).toBe(true);

  // The question before a discard, then Cancel: nothing is discarded.
  await cards(admin)
    .first()
    .getByRole("link", { name: /^Discard/ })
    .click();
  await expect(admin.getByRole("group", { name: /Discard this dead letter for good\?/ })).toBeVisible();
  expect(await axeFindings(admin, "admin")).toEqual([]);
  await admin.getByRole("link", { name: "Cancel" }).click();
  await expect(admin.getByRole("group")).toHaveCount(0);
  await expect(cards(admin)).toHaveCount(before - 1);

  // Discard another, without JavaScript: the link asks first, the form posts.
  const plain = await signedIn(browser, ADMIN, undefined, false);
  await plain.goto("/dashboard/admin/dead-letters");
  const remaining = await cards(plain).count();
  await cards(plain)
    .first()
    .getByRole("link", { name: /^Discard/ })
    .click();
  await expect(plain.getByText("Discard this dead letter for good?")).toBeVisible();
  await plain.getByRole("group").getByRole("button", { name: "Discard" }).click();
  await expect(plain.getByRole("status").filter({ hasText: "Discarded." })).toBeVisible();
  await expect(cards(plain)).toHaveCount(remaining - 1);
  await plain.context().close();

  // Nothing else reached the provider: the replay was the one mail sent.
  expect(provider.calls.filter((c) => c.ok)).toHaveLength(1);
});

test("a non-admin finds no such page and no such tab", async ({ browser }) => {
  const demo = await signedIn(browser, DEMO);
  await expect(demo.getByRole("link", { name: "Dead Letters" })).toHaveCount(0);
  await demo.goto("/dashboard/admin/dead-letters");
  await expect(demo.getByText("This page does not exist.")).toBeVisible();
});
