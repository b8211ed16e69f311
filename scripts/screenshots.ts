// Screenshots of the main pages at desktop, laptop (1024 px: the dashboard's side rail beside its
// tabs) and mobile widths, for a human look.
// Usage: npm run screenshots  (builds into .build/screenshots, writes screenshots/*.png)
import { cpSync, mkdirSync, rmSync } from "node:fs";
import { chromium } from "playwright-core";
import { CHROMIUM_ARGS, clientContextOptions, signIn, signUpAndConfirm, uniqueEmail } from "../tests/e2e/browser.ts";
import { pollForTokens, postUsageReport, requestDeviceCode, thisDevice } from "./desktop-demo.ts";
import { prepareMemberAccount } from "./member-account.ts";
import { shootTeamPages } from "./team-shots.ts";
import { shootUsageTools } from "./usage-tools-shots.ts";
import { ensureChromium } from "./ensure-chromium.mjs";
import { buildDirFor, buildSite } from "./lib.mjs";
import { serveTestSite } from "./serve-test-site.mjs";

const executablePath = await ensureChromium();
const buildDir = buildDirFor("screenshots");
await buildSite(buildDir, { stdio: ["ignore", "ignore", "inherit"] });
const site = await serveTestSite({ buildDir, stateDir: ".wrangler/screenshot-state" });
process.env.BASE_URL = site.baseUrl;
const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
const launch = (viewport?: { width: number; height: number }) => browser.newContext(clientContextOptions(viewport));
const firstPage = (context: Awaited<ReturnType<typeof launch>>) => context.newPage();

// A custom range (issue 49): the last two weeks up to yesterday in UTC, a day any account's zone has had.
const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
const twoWeeksBefore = new Date(Date.now() - 14 * 86_400_000).toISOString().slice(0, 10);

const pages: Array<[string, string, boolean]> = [
  ["home", "/", false],
  // The site's dialogs and pages (issue 12).
  ["faq", "/#faq", false],
  ["modal-contact", "/?modal=contact", false],
  ["modal-api-guide", "/?modal=api-guide", false],
  ["modal-api-guide-steps", "/?modal=api-guide&provider=anthropic", false],
  ["modal-docs", "/?modal=docs&doc=privacy", false],
  ["modal-features", "/?modal=features&tab=models", false],
  ["api-setup", "/api-setup?provider=openai", false],
  ["legal-terms", "/legal/terms", false],
  ["contact", "/contact", false],
  ["early-access", "/early-access", false],
  ["auth-signin", "/auth?mode=signin", false],
  ["auth-signup", "/auth?mode=signup", false],
  ["auth-forgot", "/auth?mode=forgot-password", false],
  ["reset-invalid", "/auth/reset-password", false],
  ["pricing", "/pricing", false],
  ["changelog", "/changelog", false],
  ["dashboard", "/dashboard", true],
  ["dashboard-signout", "/dashboard?confirm=signout", true],
  ["dashboard-usage", "/dashboard/usage", true],
  ["dashboard-usage-30d", "/dashboard/usage?range=30d&metric=requests&engagement=hours&view=services", true],
  ["dashboard-usage-1d", "/dashboard/usage?range=1d&engagement=services&view=keys", true],
  // The request log (issue 49): the last week, and a filtered day or two (its histogram by the hour).
  ["dashboard-request-log", "/dashboard/usage/requests", true],
  ["dashboard-request-log-errors", "/dashboard/usage/requests?status=error&model=gpt-4o", true],
  ["dashboard-usage-range", `/dashboard/usage?from=${twoWeeksBefore}&to=${yesterday}&group_by=device`, true],
  ["dashboard-usage-refused", `/dashboard/usage?from=${yesterday}&to=${twoWeeksBefore}`, true],
  ["dashboard-budget", "/dashboard/budget", true],
  ["dashboard-budget-edit", "/dashboard/budget?edit=1", true],
  ["dashboard-alerts", "/dashboard/alerts", true],
  ["dashboard-analytics-locked", "/dashboard/analytics", true],
  ["auth-already-signed-in", "/auth?mode=signup", true],
  ["pricing-checkout-modal", "/pricing?checkout=open", true],
  ["pricing-terms", "/pricing?terms=open", true],
  ["billing", "/dashboard/billing", true],
  ["billing-invoices", "/dashboard/billing?view=invoices", true],
  ["billing-payment-methods", "/dashboard/billing?view=payment-methods", true],
  ["billing-plans", "/dashboard/billing?plans=open", true],
  ["billing-portal-confirm", "/dashboard/billing?confirm=portal", true],
  ["success-no-session", "/auth/success", true],
  ["downloads-free", "/dashboard/downloads", true],
  // The profile: header, sessions and devices, the Edit Profile dialog and the phone dialog.
  ["profile", "/dashboard/profile", true],
  ["profile-edit", "/dashboard/profile?edit=1", true],
  ["profile-phone", "/dashboard/profile?phone=verify", true],
  // Two-factor off: the setup's first page (its secret and QR code come after "Set Up Two-Factor", a POST); the account deletion.
  ["two-factor-setup", "/dashboard/profile/two-factor", true],
  ["delete-account", "/dashboard/profile/delete", true],
  ["activate", "/activate?key=ABCD-1234-EFGH-5678", true],
];

const VIEWPORTS = [
  [1280, 900, "desktop"],
  [1024, 768, "laptop"],
  [390, 844, "mobile"],
] as const;

mkdirSync("screenshots", { recursive: true });
try {
  // A member using the profile's security features (issue 29): subscribed, with model calls, a
  // passkey, a data export, an e-mail change waiting and two-factor on (scripts/member-account.ts).
  const member = await prepareMemberAccount(browser);
  for (const [width, height, label] of VIEWPORTS) {
    const context = await launch({ width, height });
    const page = await firstPage(context);
    await signIn(page, member.email, member.password);
    await page.waitForURL((u) => u.pathname === "/auth/two-factor");
    await page.screenshot({ path: `screenshots/two-factor-sign-in-${label}.png`, fullPage: true });
    await page.getByLabel("Authentication code").fill(member.recoveryCodes.shift()!);
    await page.getByRole("button", { name: "Verify" }).click();
    await page.waitForURL((u) => u.pathname === "/dashboard");
    for (const [name, path] of [
      ["member-overview", "/dashboard"],
      ["member-analytics", "/dashboard/analytics"],
      ["member-analytics-range", "/dashboard/analytics?range=7d&group_by=request_type"],
      ["member-usage-range", "/dashboard/usage?range=30d&group_by=provider"],
      ["member-downloads", "/dashboard/downloads"],
      ["member-billing", "/dashboard/billing"],
      // The passkeys list, the data export ready to download, both cards' notices.
      ["profile-security", "/dashboard/profile?passkeys=added&export=requested"],
      ["two-factor-on", "/dashboard/profile/two-factor"],
      ["delete-account-two-factor", "/dashboard/profile/delete"],
    ] as const) {
      await page.goto(path);
      await page.waitForLoadState("networkidle");
      await page.screenshot({ path: `screenshots/${name}-${label}.png`, fullPage: true });
    }
    await context.close();
  }
  await shootUsageTools(browser, launch, VIEWPORTS);
  await shootTeamPages(launch, VIEWPORTS);
  for (const [width, height, label] of VIEWPORTS) {
    const context = await launch({ width, height });
    const page = await firstPage(context);
    let signedIn = false;
    for (const [name, path, needsUser] of pages) {
      if (needsUser && !signedIn) {
        await signIn(page, "demo@modelify.dev", "Modelify-Demo-2026");
        await page.waitForURL((u) => u.pathname === "/dashboard");
        signedIn = true;
      }
      await page.goto(path);
      await page.waitForLoadState("networkidle");
      // A dialog is what the window shows; the page under it is in the page's own screenshot.
      await page.screenshot({ path: `screenshots/${name}-${label}.png`, fullPage: !name.startsWith("modal-") });
    }
    await context.close();
  }
  for (const [width, height, label] of VIEWPORTS) {
    const context = await launch({ width, height });
    const page = await firstPage(context);
    await signUpAndConfirm(page, uniqueEmail("shots"));
    await page.goto("/pricing?checkout=open");
    await page.getByRole("button", { name: "Continue to Checkout" }).click();
    await page.waitForURL((u) => u.pathname.startsWith("/checkout/"));
    await page.screenshot({ path: `screenshots/stripe-standin-checkout-${label}.png`, fullPage: true });
    await page.getByLabel("Card number").fill("4242 4242 4242 4242");
    await page.getByLabel("Expiry (MM/YY)").fill("12/34");
    await page.getByLabel("CVC").fill("123");
    await page.getByRole("button", { name: "Start trial" }).click();
    await page.waitForURL((u) => u.pathname === "/auth/success");
    // The post-payment download dialog: a trial's badge says so (issue 46), not "Payment Successful!".
    await page.getByText("Free trial started").waitFor();
    await page.screenshot({ path: `screenshots/success-${label}.png`, fullPage: true });
    await page.waitForTimeout(1500);
    for (const [name, path] of [
      ["subscriber-overview", "/dashboard"],
      ["subscriber-billing", "/dashboard/billing"],
      ["subscriber-invoices", "/dashboard/billing?view=invoices"],
      ["downloads-tab", "/dashboard/downloads"],
      ["downloads-all-versions", "/dashboard/downloads?versions=mac"],
      ["home-download-dialog", "/?download=windows#download"],
    ] as const) {
      await page.goto(path);
      await page.waitForLoadState("networkidle");
      await page.screenshot({ path: `screenshots/${name}-${label}.png`, fullPage: true });
    }
    await context.close();
  }
  // The early-access admin area, after two visitors joined the waitlist.
  {
    const visitor = await launch();
    const visitorPage = await firstPage(visitor);
    for (const [first, last, company] of [
      ["Grace", "Hopper", "Navy Labs"],
      ["Alan", "Turing", ""],
    ] as const) {
      await visitorPage.goto("/early-access");
      await visitorPage.getByLabel("Email").fill(uniqueEmail(first.toLowerCase()));
      await visitorPage.getByLabel("First name").fill(first);
      await visitorPage.getByLabel("Last name").fill(last);
      if (company) await visitorPage.getByLabel(/Company/).fill(company);
      await visitorPage.getByRole("button", { name: /Join/ }).click();
      await visitorPage.waitForLoadState("networkidle");
    }
    await visitorPage.screenshot({ path: "screenshots/early-access-joined-desktop.png", fullPage: true });
    await visitor.close();
    // The admin grants one entry and takes three unassigned keys as a CSV.
    const granting = await launch();
    const grantingPage = await firstPage(granting);
    await signIn(grantingPage, "admin@modelify.dev", "Modelify-Admin-2026");
    await grantingPage.waitForURL((u) => u.pathname === "/dashboard");
    await grantingPage.goto("/dashboard/admin/early-access");
    await grantingPage
      .getByTestId("waitlist-table")
      .getByRole("row", { name: /Grace Hopper/ })
      .first()
      .getByRole("button", { name: "Grant early access" })
      .click();
    await grantingPage.getByText("Early access granted").waitFor();
    await grantingPage.getByLabel("Unassigned keys").fill("3");
    const download = grantingPage.waitForEvent("download");
    await grantingPage.getByRole("button", { name: "Create N keys (CSV)" }).click();
    const csv = Buffer.concat(await (await (await download).createReadStream()).toArray()).toString("utf8");
    const [firstKey] = csv
      .trim()
      .split("\r\n")
      .slice(1)
      .map((line) => line.split(",")[0]!);
    await granting.close();
    // A new account: the overview's activation card, then redeeming a key there.
    for (const [width, height, label] of VIEWPORTS) {
      const member = await launch({ width, height });
      const memberPage = await firstPage(member);
      await signUpAndConfirm(memberPage, uniqueEmail(`member-${label}`));
      await memberPage.waitForLoadState("networkidle");
      await memberPage.screenshot({ path: `screenshots/overview-activate-${label}.png`, fullPage: true });
      if (label === "desktop") {
        await memberPage.getByTestId("early-access-card").getByLabel("Activation key").fill(firstKey!.toLowerCase());
        await memberPage.getByTestId("early-access-card").getByRole("button", { name: "Activate Early Access" }).click();
        await memberPage.getByTestId("early-access-status").waitFor();
      } else {
        await memberPage.getByTestId("early-access-card").getByLabel("Activation key").fill("ZZZZ-ZZZZ-ZZZZ-ZZZZ");
        await memberPage.getByTestId("early-access-card").getByRole("button", { name: "Activate Early Access" }).click();
        await memberPage.getByTestId("early-access-card").getByRole("alert").waitFor();
      }
      await memberPage.screenshot({ path: `screenshots/overview-redeemed-${label}.png`, fullPage: true });
      await member.close();
    }
    for (const [width, height, label] of VIEWPORTS) {
      const admin = await launch({ width, height });
      const adminPage = await firstPage(admin);
      await signIn(adminPage, "admin@modelify.dev", "Modelify-Admin-2026");
      await adminPage.waitForURL((u) => u.pathname === "/dashboard");
      await adminPage.goto("/dashboard/admin/early-access");
      await adminPage.waitForLoadState("networkidle");
      await adminPage.screenshot({ path: `screenshots/admin-early-access-${label}.png`, fullPage: true });
      // The funnel, with the events this run made (visits, sign-ups, a confirmation, a trial).
      await adminPage.goto("/dashboard/admin/funnel");
      await adminPage.screenshot({ path: `screenshots/admin-funnel-${label}.png`, fullPage: true });
      await admin.close();
    }
  }
  // The admin's debug tab; it also grants the demo user a year, to show Model Analytics.
  {
    const context = await launch();
    const page = await firstPage(context);
    await signIn(page, "admin@modelify.dev", "Modelify-Admin-2026");
    await page.waitForURL((u) => u.pathname === "/dashboard");
    await page.goto("/dashboard/admin");
    // The tools act only on an address typed in (never the admin's own by default).
    await page.getByLabel("Account e-mail").fill("demo@modelify.dev");
    await page.getByRole("button", { name: "Look up" }).click();
    await page.getByText(/Subscription data retrieved|No subscription found/).waitFor();
    await page.screenshot({ path: "screenshots/debug-desktop.png", fullPage: true });
    await page.getByRole("button", { name: "Grant one year (emergency fix)" }).click();
    // A grant is asked for, then confirmed (it changes what the account is billed).
    await page.getByRole("button", { name: "Yes, grant one year" }).click();
    await page.getByText("Subscription fixed for demo@modelify.dev").waitFor();
    await context.close();
    for (const [width, height, label] of VIEWPORTS) {
      const demo = await launch({ width, height });
      const demoPage = await firstPage(demo);
      await signIn(demoPage, "demo@modelify.dev", "Modelify-Demo-2026");
      await demoPage.waitForURL((u) => u.pathname === "/dashboard");
      for (const [name, path] of [
        ["analytics", "/dashboard/analytics"],
        ["analytics-code", "/dashboard/analytics?category=code&sort=cost"],
        ["overview-subscribed", "/dashboard"],
      ] as const) {
        await demoPage.goto(path);
        await demoPage.screenshot({ path: `screenshots/${name}-${label}.png`, fullPage: true });
      }
      await demo.close();
    }
  }
  // The desktop app's sign-in (issue 15): the code form, the device asking, approved, and the
  // device in the profile's Sessions and devices with its use this month.
  for (const [width, height, label] of VIEWPORTS) {
    const context = await launch({ width, height });
    const page = await firstPage(context);
    await signIn(page, "demo@modelify.dev", "Modelify-Demo-2026");
    await page.waitForURL((u) => u.pathname === "/dashboard");
    const device = thisDevice({ name: `Ada's MacBook Pro (${label})` });
    const grant = await requestDeviceCode(site.baseUrl, { ...device, platform: "macos", app_version: "1.4.2" });
    await page.goto("/device");
    await page.screenshot({ path: `screenshots/device-enter-${label}.png`, fullPage: true });
    // The app's link followed from another site: the page only fills the code in (issue 25, F5).
    await context.route("http://elsewhere.example/**", (route) =>
      route.fulfill({ contentType: "text/html", body: `<a id="go" href="${grant.verification_uri_complete}">Sign in the app</a>` }),
    );
    await page.goto("http://elsewhere.example/");
    await page.locator("#go").click();
    await page.getByText("Check that this is the code").waitFor();
    await page.screenshot({ path: `screenshots/device-prefilled-${label}.png`, fullPage: true });
    await page.goto(grant.verification_uri_complete);
    await page.getByTestId("device-request").waitFor();
    await page.screenshot({ path: `screenshots/device-confirm-${label}.png`, fullPage: true });
    await page.getByRole("button", { name: "Approve" }).click();
    await page.getByText("Device approved.").waitFor();
    await page.screenshot({ path: `screenshots/device-approved-${label}.png`, fullPage: true });
    const tokens = await pollForTokens(site.baseUrl, grant);
    for (let i = 0; i < 3; i++) await postUsageReport(site.baseUrl, tokens.access_token, { cost_usd: 0.0125 });
    await page.waitForTimeout(2000);
    await page.goto("/dashboard/profile");
    await page.getByRole("region", { name: "Sessions and devices" }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: `screenshots/profile-devices-${label}.png`, fullPage: true });
    await context.close();
  }
  // The auth forms submitted empty: the browser's check (loaded on first use) shows the errors.
  for (const [width, height, label] of VIEWPORTS) {
    const context = await launch({ width, height });
    const page = await firstPage(context);
    for (const [name, mode, button, error] of [
      ["signin", "signin", "Sign In", "Please enter a valid email address"],
      ["signup", "signup", "Create Account", "First name is required"],
      ["forgot", "forgot-password", "Send Reset Link", "Please enter a valid email address"],
    ] as const) {
      await page.goto(`/auth?mode=${mode}`);
      await page.waitForLoadState("networkidle");
      await page.getByRole("button", { name: button, exact: true }).click();
      await page.getByText(error).waitFor();
      await page.screenshot({ path: `screenshots/auth-${name}-errors-${label}.png`, fullPage: true });
    }
    await context.close();
  }
  // The ad-measurement question: only on a site with a pixel id (a copy of this build, configured).
  {
    const pixelBuild = `${buildDir}-pixel`;
    rmSync(pixelBuild, { recursive: true, force: true });
    cpSync(buildDir, pixelBuild, { recursive: true });
    const pixelSite = await serveTestSite({ buildDir: pixelBuild, stateDir: ".wrangler/screenshot-pixel-state", vars: { META_PIXEL_ID: "123456789012345" } });
    try {
      for (const [width, height, label] of VIEWPORTS) {
        const visitor = await browser.newContext({ ...clientContextOptions({ width, height }), baseURL: pixelSite.baseUrl });
        const visitorPage = await visitor.newPage();
        await visitorPage.goto("/");
        await visitorPage.getByTestId("ad-consent").waitFor();
        await visitorPage.screenshot({ path: `screenshots/ad-consent-${label}.png` });
        await visitor.close();
      }
    } finally {
      await pixelSite.stop();
    }
  }
} finally {
  await browser.close();
  await site.stop();
}
console.log("Screenshots written to screenshots/");
