// Issue 49, personal API keys (ADR 0034), in the browser: a key is made on /dashboard/api-keys
// ("confirm it's you" first when the session's proof is not recent), its secret is shown once,
// it reads GET /api/v1/usage/summary, and once revoked it is refused. A new account for each test.
import type { Page } from "@playwright/test";
import { clientContextOptions, hydrated, signUpAndConfirm, uniqueEmail, waitForMail } from "./browser.ts";
import { expect, test } from "./fixtures.ts";

const PASSWORD = "Sunny-Day-42";
const SECRET = /^mdl_live_[A-Za-z0-9]{40}$/;

function readSummary(baseUrl: string, key: string) {
  return fetch(`${baseUrl}/api/v1/usage/summary?group_by=model`, { headers: { Authorization: `Bearer ${key}` } });
}

/** Makes a key named `name` on the page (its proof fields already filled where asked) and returns its secret. */
async function createKey(page: Page, name: string): Promise<string> {
  await page.getByLabel("Name").fill(name);
  await page.getByRole("button", { name: "Create Key" }).click();
  const shown = page.getByRole("region", { name: `Your new key "${name}"` });
  await expect(shown).toContainText("it is not shown again");
  const secret = await shown.getByLabel("The new key").inputValue();
  expect(secret).toMatch(SECRET);
  return secret;
}

/** The key reads the summary, is revoked on the page, and is refused from then on. */
async function readThenRevoke(page: Page, baseUrl: string, email: string, name: string, secret: string) {
  const summary = await readSummary(baseUrl, secret);
  expect(summary.status).toBe(200);
  expect(await summary.json()).toMatchObject({ time_zone: "UTC", group_by: "model", totals: { requests: 0 } });
  await waitForMail(email, /An API key was made for your Modelify account/);

  // Shown once: the page read again lists the key by its prefix, never its secret.
  await page.goto("/dashboard/api-keys");
  const keys = page.getByRole("list", { name: "Your API keys" });
  await expect(keys.getByRole("listitem")).toHaveCount(1);
  await expect(keys.getByRole("listitem")).toContainText(name);
  await expect(keys.getByRole("listitem")).toContainText(`${secret.slice(0, 14)}…`);
  await expect(page.getByLabel("The new key")).toHaveCount(0);
  expect(await page.content()).not.toContain(secret);

  await keys.getByRole("button", { name: `Revoke ${name}` }).click();
  await expect(page.getByText("The key is revoked: it no longer works.")).toBeVisible();
  await expect(keys.getByRole("listitem")).toContainText(/revoked/);
  await expect(keys.getByRole("button", { name: `Revoke ${name}` })).toHaveCount(0);
  expect((await readSummary(baseUrl, secret)).status).toBe(401);
  await waitForMail(email, /An API key of your Modelify account was revoked/);
}

test("after a passkey sign-in, a key asks for the password first, then is shown once, reads the summary, and is refused once revoked", async ({
  page,
  site,
}) => {
  // A passkey sign-in is no recent proof (ADR 0028): the session the key is made in has none.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: { protocol: "ctap2", transport: "internal", hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
  });
  // The e-mail field's autofill would answer the authenticator by itself: the button is the way in.
  await page.addInitScript(() => {
    Object.defineProperty(PublicKeyCredential, "isConditionalMediationAvailable", { value: async () => false });
  });
  const email = uniqueEmail("api-keys");
  await signUpAndConfirm(page, email, PASSWORD);
  await page.goto("/dashboard/profile");
  await hydrated(page);
  const passkeys = page.getByRole("region", { name: "Passkeys" });
  await passkeys.getByRole("button", { name: "Add a passkey" }).click();
  await expect(passkeys.getByRole("status").filter({ hasText: "Passkey added." })).toBeVisible();
  await page.context().clearCookies();
  await page.goto("/auth?mode=signin");
  await hydrated(page);
  await page.getByRole("button", { name: "Sign in with a passkey" }).click();
  await page.waitForURL((url) => url.pathname === "/dashboard");

  await page.goto("/dashboard/api-keys");
  await hydrated(page);
  await expect(page.getByText("A key reads your account's usage, so confirm it's you.")).toBeVisible();
  await page.getByLabel("Name").fill("Spreadsheet");
  await page.getByLabel("Your password").fill("Not-The-Password-1");
  await page.getByRole("button", { name: "Create Key" }).click();
  await expect(page.getByLabel("Your password")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByLabel("The new key")).toHaveCount(0);
  await expect(page.getByText("You have no API keys.")).toBeVisible();

  await page.getByLabel("Your password").fill(PASSWORD);
  const secret = await createKey(page, "Spreadsheet");
  // The proof is recent now: the next form asks for nothing more.
  await expect(page.getByLabel("Your password")).toHaveCount(0);
  await readThenRevoke(page, site.baseUrl, email, "Spreadsheet", secret);
});

test("without JavaScript, a key made just after sign-up needs no more proof, and works until revoked", async ({ page, browser, site }) => {
  const email = uniqueEmail("api-keys-nojs");
  await signUpAndConfirm(page, email, PASSWORD);
  const context = await browser.newContext({ ...clientContextOptions(), javaScriptEnabled: false, storageState: await page.context().storageState() });
  try {
    const client = await context.newPage();
    await client.goto("/dashboard/api-keys");
    await expect(client.getByText("You have no API keys.")).toBeVisible();
    // The sign-up link's session is a recent proof: no password field.
    await expect(client.getByLabel("Your password")).toHaveCount(0);
    // A name is required, and said so beside the field.
    await client.getByRole("button", { name: "Create Key" }).click();
    await expect(client.getByLabel("Name")).toHaveAttribute("aria-invalid", "true");
    await expect(client.getByLabel("The new key")).toHaveCount(0);
    const secret = await createKey(client, "CI nightly");
    await readThenRevoke(client, site.baseUrl, email, "CI nightly", secret);
  } finally {
    await context.close();
  }
});
