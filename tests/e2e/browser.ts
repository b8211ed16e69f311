// What the browser tests share: how Debian's Chromium is launched, a client address per browser
// context, the local outbox, and the sign-in and sign-up journeys. Free of @playwright/test so the
// screenshot script can use it too.
import type { Browser, BrowserContextOptions, Page } from "playwright-core";

/** The flags this machine's Chromium needs (no GPU, no sandbox in containers, no background traffic). */
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** The built site under test (set by tests/e2e/global-setup.ts). */
export const baseUrl = () => process.env.BASE_URL ?? "http://localhost:8787";

let clientCounter = Math.floor(Math.random() * 200);

/**
 * A client address of its own (CF-Connecting-IP, which the site trusts locally as the edge sets
 * it), so per-address limits and lockouts of one test never reach another.
 */
export function nextClientAddress() {
  clientCounter++;
  return `198.18.${Math.floor(clientCounter / 250) % 256}.${(clientCounter % 250) + 1}`;
}

/** Options for a browser context that looks like a separate person: own address, own cookies. */
export function clientContextOptions(viewport = { width: 1280, height: 900 }): BrowserContextOptions {
  return { baseURL: baseUrl(), viewport, extraHTTPHeaders: { "CF-Connecting-IP": nextClientAddress() } };
}

/** A fresh page in a fresh context (used where a test file keeps one page across its steps). */
export async function newClientPage(browser: Browser, viewport?: { width: number; height: number }): Promise<Page> {
  const context = await browser.newContext(clientContextOptions(viewport));
  return context.newPage();
}

type OutboxMessage = { to: string; subject: string; text: string; links: string[]; createdAt: number };

/** Polls the local outbox (JSON) for a mail to `to` whose subject matches. */
export async function waitForMail(to: string, subject: RegExp, after = 0, timeoutMs = 15_000): Promise<OutboxMessage> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const response = await fetch(`${baseUrl()}/dev/outbox.json?to=${encodeURIComponent(to)}`);
    const messages = (await response.json()) as OutboxMessage[];
    const found = messages.find((m) => subject.test(m.subject) && m.createdAt >= after);
    if (found) return found;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`No mail to ${to} matching ${subject}`);
}

export function uniqueEmail(prefix: string) {
  return `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}@example.com`;
}

export async function signIn(page: Page, email: string, password: string) {
  await page.goto("/auth?mode=signin");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign In" }).click();
}

/** Signs up through the form and confirms through the outbox link: the page ends on /dashboard. */
export async function signUpAndConfirm(page: Page, email: string, password = "Sunny-Day-42") {
  await page.goto("/auth?mode=signup");
  await page.getByLabel("First name").fill("Katherine");
  await page.getByLabel("Last name").fill("Johnson");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Phone number").fill("555 010 9876");
  await page.getByLabel("Security question").selectOption("favorite_food");
  await page.getByLabel("Security answer").fill("pie");
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByLabel("Confirm password").fill(password);
  await page.getByRole("button", { name: "Create Account" }).click();
  await page.getByText("Account created successfully!").waitFor();
  const mail = await waitForMail(email, /Confirm your Modelify account/);
  await page.goto(mail.links[0]!);
  await page.waitForURL((url) => url.pathname === "/dashboard");
}

/** Starts the trial through the checkout on the Stripe stand-in with the test card: the page ends on /auth/success. */
export async function subscribeWithTestCard(page: Page) {
  await page.goto("/pricing?checkout=open");
  await page.getByRole("dialog").getByRole("button", { name: "Continue to Checkout" }).click();
  await page.waitForURL((url) => url.pathname.startsWith("/checkout/"));
  await page.getByLabel("Card number").fill("4242 4242 4242 4242");
  await page.getByLabel("Expiry (MM/YY)").fill("12/34");
  await page.getByLabel("CVC").fill("123");
  await page.getByRole("button", { name: "Start trial" }).click();
  await page.waitForURL((url) => url.pathname === "/auth/success");
}
