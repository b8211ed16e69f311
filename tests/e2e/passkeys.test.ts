// Acceptance (issue 29): in Chromium with the DevTools virtual authenticator, register a passkey
// from the profile, sign out, sign in with it ("Sign in with a passkey"), remove it, and then it no
// longer signs in. The authenticator keeps its credential throughout, as a phone would.
import type { Page } from "@playwright/test";
import { hydrated, signUpAndConfirm, uniqueEmail } from "./browser.ts";
import { expect, test } from "./fixtures.ts";

async function addVirtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: { protocol: "ctap2", transport: "internal", hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
  });
  return {
    credentials: async () => (await cdp.send("WebAuthn.getCredentials", { authenticatorId })).credentials,
    /** Whether the authenticator answers requests by itself (as a user touching it would). */
    answers: (enabled: boolean) => cdp.send("WebAuthn.setAutomaticPresenceSimulation", { authenticatorId, enabled }),
  };
}

async function signOut(page: Page) {
  await page.getByRole("link", { name: "Sign Out" }).first().click();
  const dialog = page.getByRole("dialog", { name: "Sign Out" });
  await dialog.getByRole("button", { name: "Sign Out" }).click();
  await page.waitForURL((url) => url.pathname === "/");
}

/**
 * Chrome's virtual authenticator answers the e-mail field's autofill request by itself; where a
 * test means the button, the page is told autofill is unavailable, so the button is the only way.
 */
async function withoutAutofill(page: Page) {
  await page.addInitScript(() => {
    Object.defineProperty(PublicKeyCredential, "isConditionalMediationAvailable", { value: async () => false });
  });
}

async function signInWithPasskey(page: Page) {
  await page.goto("/auth?mode=signin");
  await hydrated(page);
  await page.getByRole("button", { name: "Sign in with a passkey" }).click();
}

test("register a passkey, sign out, sign in with it, remove it, and then it no longer works", async ({ page }) => {
  const authenticator = await addVirtualAuthenticator(page);
  await withoutAutofill(page);
  const email = uniqueEmail("passkey");
  await signUpAndConfirm(page, email);

  await page.goto("/dashboard/profile");
  await hydrated(page);
  const card = page.getByRole("region", { name: "Passkeys" });
  await expect(card.getByText("You have no passkeys yet.")).toBeVisible();
  await card.getByLabel("Passkey name").fill("Work laptop");
  await card.getByRole("button", { name: "Add a passkey" }).click();
  await expect(card.getByRole("status").filter({ hasText: "Passkey added." })).toBeVisible();
  await expect(card.getByTestId("passkey")).toHaveCount(1);
  await expect(card.getByTestId("passkey")).toContainText("Work laptop");
  await expect(card.getByTestId("passkey")).toContainText("Never used to sign in");
  expect(await authenticator.credentials()).toHaveLength(1);

  await signOut(page);
  await signInWithPasskey(page);
  await page.waitForURL((url) => url.pathname === "/dashboard");

  await page.goto("/dashboard/profile");
  await expect(card.getByTestId("passkey")).toContainText("Last used");
  // Renamed through a disclosure and a plain form.
  await card.getByText("Rename passkey: Work laptop").click();
  await card.getByLabel("New name").fill("Old laptop");
  await card.getByRole("button", { name: "Save name" }).click();
  await page.waitForURL((url) => url.searchParams.get("passkeys") === "renamed");
  await expect(card.getByTestId("passkey")).toContainText("Old laptop");

  // A passkey sign-in is no proof for removing a way in (issue 45): "Confirm it's you" first, with
  // the password, and back to the card.
  await card.getByRole("button", { name: "Remove passkey: Old laptop" }).click();
  await page.waitForURL((url) => url.pathname === "/dashboard/profile/confirm");
  await page.getByLabel("Your password").fill("Sunny-Day-42");
  await page.getByRole("button", { name: "Confirm", exact: true }).click();
  await page.waitForURL((url) => url.pathname === "/dashboard/profile" && url.hash === "#passkeys-title");
  await card.getByRole("button", { name: "Remove passkey: Old laptop" }).click();
  await page.waitForURL((url) => url.searchParams.get("passkeys") === "removed");
  await expect(card.getByTestId("passkey")).toHaveCount(0);

  await signOut(page);
  // The authenticator still holds the credential and answers, but the site no longer knows it.
  expect(await authenticator.credentials()).toHaveLength(1);
  await signInWithPasskey(page);
  await expect(page.getByRole("alert").filter({ hasText: "This passkey is not registered with Modelify." })).toBeVisible();
  await expect(page).toHaveURL(/\/auth/);
  await page.goto("/dashboard");
  await page.waitForURL((url) => url.pathname === "/auth");
});

test("the e-mail field's autofill offers the passkey, and picking it signs in", async ({ page }) => {
  await addVirtualAuthenticator(page);
  const email = uniqueEmail("passkey-autofill");
  await signUpAndConfirm(page, email);
  await page.goto("/dashboard/profile");
  await hydrated(page);
  const card = page.getByRole("region", { name: "Passkeys" });
  await card.getByRole("button", { name: "Add a passkey" }).click();
  await expect(card.getByRole("status").filter({ hasText: "Passkey added." })).toBeVisible();
  await signOut(page);

  // No click: the browser's autofill request (conditional mediation) is answered by the
  // authenticator as a user picking the passkey under the e-mail field would.
  await page.goto("/auth?mode=signin&from=pricing");
  await expect(page.getByLabel("Email")).toHaveAttribute("autocomplete", "username webauthn");
  await page.waitForURL((url) => url.pathname === "/pricing");
  await page.goto("/dashboard/profile");
  await expect(card.getByTestId("passkey")).toContainText("Last used");
});

// Issue 46: each view of the sign-in page asks for a sign-in challenge for the e-mail field's
// autofill. An office behind one address views it all day: the views spend no limit, so the
// console shows no 429 and passkey sign-in still works after them.
test("fifty views of the sign-in page from one address leave passkey sign-in working, with no 429", async ({ page }) => {
  test.setTimeout(120_000);
  const authenticator = await addVirtualAuthenticator(page);
  await signUpAndConfirm(page, uniqueEmail("passkey-office"));
  await page.goto("/dashboard/profile");
  await hydrated(page);
  await page.getByRole("region", { name: "Passkeys" }).getByRole("button", { name: "Add a passkey" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Passkey added." })).toBeVisible();
  await signOut(page);

  const refused: string[] = [];
  page.on("response", (response) => {
    if (response.status() === 429) refused.push(response.url());
  });
  page.on("console", (message) => {
    if (message.type() === "error") refused.push(message.text());
  });
  // Views whose autofill request nobody answers (the authenticator stays silent): five in the
  // browser, hydrated, each asking for its challenge; the other forty-five ask from the same
  // browser (same address, cookies and headers) the way those pages do, without rendering them.
  await authenticator.answers(false);
  for (let view = 0; view < 5; view++) {
    const asked = page.waitForResponse((response) => response.url().endsWith("/auth/passkey/options"));
    await page.goto("/auth?mode=signin");
    expect((await asked).status(), `view ${view + 1}`).toBe(200);
  }
  const baseURL = new URL(page.url()).origin;
  for (let view = 5; view < 50; view++) {
    const asked = await page.request.post("/auth/passkey/options", { headers: { Origin: baseURL } });
    expect(asked.status(), `view ${view + 1}`).toBe(200);
  }
  expect(refused).toEqual([]);

  // Then someone at the same address picks their passkey in the e-mail field's autofill.
  await authenticator.answers(true);
  await page.goto("/auth?mode=signin");
  await page.waitForURL((url) => url.pathname === "/dashboard");
  expect(refused).toEqual([]);
});
