// A member using everything the seeded accounts do not: made through the site as a person would,
// in Chromium: signed up and confirmed, subscribed (the test card on the Stripe stand-in), the
// desktop app signed in (device approval) and reporting model calls, a passkey added (the DevTools
// virtual authenticator), a data export asked for and ready, a change of e-mail address waiting
// for its confirmation, a password reset asked for, two-factor turned on (the code made here as an
// authenticator app would); and the links the outbox holds for it, unused, plus a second sign-up's
// confirmation link. For `npm run lighthouse` and `npm run screenshots`, which look at the pages
// these change or open: the subscriber's tabs (analytics with data, downloads, billing), the
// profile's security cards (issue 29), the two-factor settings, the account deletion, the
// two-factor sign-in step and the pages e-mailed links land on. BASE_URL must name the site
// (tests/e2e/browser.ts).
import { generateTOTP } from "@epic-web/totp";
import type { Browser } from "playwright-core";
import {
  baseUrl,
  clientContextOptions,
  HYDRATION_PROBE,
  hydrated,
  signUp,
  signUpAndConfirm,
  subscribeWithTestCard,
  uniqueEmail,
  waitForMail,
} from "../tests/e2e/browser.ts";
import { pollForTokens, postUsageReport, requestDeviceCode, thisDevice } from "./desktop-demo.ts";

type MemberAccount = {
  email: string;
  password: string;
  /** Each signs in once (the password, then the code): shift one off to use it. */
  recoveryCodes: string[];
  /** Paths of e-mailed links, none of them used: each GET only shows what the link would do. */
  links: { confirmSignUp: string; confirmEmail: string; cancelEmailChange: string; resetPassword: string };
};

const TOTP = { algorithm: "SHA-1", digits: 6, period: 30 } as const;
// A few model calls from the desktop app, so Model Analytics and the usage tab have something to compare.
const CALLS = [
  { model_name: "gpt-4o-mini", model_provider: "openai", cost_usd: 0.0004, request_duration_ms: 850 },
  { model_name: "gpt-4o", model_provider: "openai", cost_usd: 0.012, request_duration_ms: 2100 },
  { model_name: "claude-sonnet-4", model_provider: "anthropic", cost_usd: 0.009, request_duration_ms: 2700 },
  { model_name: "gemini-2.5-pro", model_provider: "google", cost_usd: 0.006, request_duration_ms: 1900, success: false },
];
const path = (link: string) => {
  const url = new URL(link);
  return `${url.pathname}${url.search}`;
};

export async function prepareMemberAccount(browser: Browser): Promise<MemberAccount> {
  const email = uniqueEmail("member");
  const newEmail = uniqueEmail("member-moved");
  const password = "Sunny-Day-42";
  const context = await browser.newContext(clientContextOptions());
  await context.addInitScript(HYDRATION_PROBE);
  const page = await context.newPage();
  const visitor = await browser.newContext(clientContextOptions());
  const visitorPage = await visitor.newPage();
  try {
    const cdp = await context.newCDPSession(page);
    await cdp.send("WebAuthn.enable");
    await cdp.send("WebAuthn.addVirtualAuthenticator", {
      options: { protocol: "ctap2", transport: "internal", hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
    });
    await signUpAndConfirm(page, email, password);
    await subscribeWithTestCard(page);
    // The post-payment dialog: a trial's badge says so (issue 46), not "Payment Successful!".
    await page.getByText("Free trial started").waitFor();

    const grant = await requestDeviceCode(baseUrl(), { ...thisDevice({ name: "Work laptop" }), platform: "macos" });
    await page.goto(grant.verification_uri_complete);
    await page.getByRole("button", { name: "Approve" }).click();
    await page.getByText("Device approved.").waitFor();
    const tokens = await pollForTokens(baseUrl(), grant);
    for (const [i, call] of [...CALLS, ...CALLS, CALLS[0]!].entries()) {
      const { status } = await postUsageReport(baseUrl(), tokens.access_token, { ...call, metadata: { conversation_id: `member-${i % 3}` } });
      if (status >= 300) throw new Error(`A usage report of ${email} was refused: ${status}`);
    }

    await page.goto("/dashboard/profile");
    await hydrated(page);
    const passkeys = page.getByRole("region", { name: "Passkeys" });
    await passkeys.getByLabel("Passkey name").fill("Work laptop");
    await passkeys.getByRole("button", { name: "Add a passkey" }).click();
    await passkeys.getByTestId("passkey").waitFor();

    await page.getByRole("button", { name: "Download my data" }).click();
    await page.waitForURL((url) => url.searchParams.get("export") === "requested");
    // Prepared by the queue's consumer: the profile shows its link once it is ready.
    for (let tries = 0; !(await page.getByRole("link", { name: "Download JSON" }).count()); tries++) {
      if (tries === 60) throw new Error(`The data export of ${email} was not ready within a minute`);
      await new Promise((resolve) => setTimeout(resolve, 1000));
      await page.reload();
    }

    await page.goto("/dashboard/profile?edit=1");
    await hydrated(page);
    const editor = page.getByRole("dialog", { name: "Edit Profile" });
    await editor.getByLabel("Email").fill(newEmail);
    await editor.getByLabel("Current password").fill(password);
    await editor.getByRole("button", { name: "Save", exact: true }).click();
    await page.getByText(`We sent a confirmation link to ${newEmail}`).waitFor();
    const confirmEmail = path((await waitForMail(newEmail, /Confirm your new Modelify e-mail address/)).links[0]!);
    const cancelEmailChange = path((await waitForMail(email, /A change of your Modelify e-mail address was requested/)).links[0]!);

    await page.goto("/dashboard/profile/two-factor");
    // The setup's secret is made by a POST (the page's GET writes nothing).
    await page.getByRole("button", { name: "Set Up Two-Factor" }).click();
    const secret = (await page.getByTestId("two-factor-secret").textContent())?.trim() ?? "";
    await page.getByLabel("Code from the app").fill((await generateTOTP({ secret, ...TOTP })).otp);
    await page.getByRole("button", { name: "Turn On Two-Factor" }).click();
    await page.getByTestId("recovery-codes").waitFor();
    const recoveryCodes = (await page.getByTestId("recovery-codes").getByRole("listitem").allTextContents()).map((code) => code.trim());

    // Signed out, in another browser: a password reset for this account, and someone else's sign-up.
    const resetAsked = Date.now();
    await visitorPage.goto("/auth?mode=forgot-password");
    await visitorPage.getByLabel("Email").fill(email);
    await visitorPage.getByRole("button", { name: "Send Reset Link" }).click();
    const resetPassword = path((await waitForMail(email, /Reset your Modelify password/, resetAsked)).links[0]!);
    const confirmSignUp = path((await signUp(visitorPage, uniqueEmail("newcomer"))).links[0]!);

    return { email, password, recoveryCodes, links: { confirmSignUp, confirmEmail, cancelEmailChange, resetPassword } };
  } finally {
    await context.close();
    await visitor.close();
  }
}
