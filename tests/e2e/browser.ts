// Launches Debian's Chromium through playwright-core with the flags this machine needs.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type BrowserContext, type Page } from "playwright-core";

export const BASE_URL = process.env.BASE_URL ?? "http://localhost:8787";

let ipCounter = Math.floor(Math.random() * 200);

/** A fresh browser profile. Each gets its own client address so lockouts are per test. */
export async function launch(options: { width?: number; height?: number } = {}): Promise<BrowserContext> {
  return chromium.launchPersistentContext(mkdtempSync(join(tmpdir(), "modelify-e2e-")), {
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    headless: true,
    viewport: { width: options.width ?? 1280, height: options.height ?? 900 },
    baseURL: BASE_URL,
    extraHTTPHeaders: { "CF-Connecting-IP": `198.18.${Math.floor(++ipCounter / 250)}.${(ipCounter % 250) + 1}` },
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
}

/** The tab a persistent context opens with (or a new one if it has none). */
export async function firstPage(context: BrowserContext): Promise<Page> {
  return context.pages()[0] ?? (await context.newPage());
}

type OutboxMessage = { to: string; subject: string; text: string; links: string[]; createdAt: number };

/** Polls the local outbox (JSON) for a mail to `to` whose subject matches. */
export async function waitForMail(to: string, subject: RegExp, after = 0, timeoutMs = 15_000): Promise<OutboxMessage> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const response = await fetch(`${BASE_URL}/dev/outbox.json?to=${encodeURIComponent(to)}`);
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
