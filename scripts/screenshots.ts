// Screenshots of the main pages at desktop and mobile widths, for a human look.
// Usage: npm run screenshots  (writes screenshots/*.png; needs a build)
import { mkdirSync } from "node:fs";
import { ensureChromium } from "./ensure-chromium.mjs";
import { serveTestSite } from "./serve-test-site.mjs";

const chromium = await ensureChromium();
const site = await serveTestSite({ stateDir: ".wrangler/screenshot-state" });
process.env.BASE_URL = site.baseUrl;
process.env.CHROMIUM_PATH = chromium;
const { launch, signIn } = await import("../tests/e2e/browser.ts");

const pages: Array<[string, string, boolean]> = [
  ["home", "/", false],
  ["auth-signin", "/auth?mode=signin", false],
  ["auth-signup", "/auth?mode=signup", false],
  ["auth-forgot", "/auth?mode=forgot-password", false],
  ["reset-invalid", "/auth/reset-password", false],
  ["pricing", "/pricing", false],
  ["changelog", "/changelog", false],
  ["dashboard", "/dashboard", true],
  ["dashboard-signout", "/dashboard?confirm=signout", true],
  ["dashboard-usage", "/dashboard?tab=usage", true],
  ["auth-already-signed-in", "/auth?mode=signup", true],
];

mkdirSync("screenshots", { recursive: true });
try {
  for (const [width, height, label] of [[1280, 900, "desktop"], [390, 844, "mobile"]] as const) {
    const context = await launch({ width, height });
    const page = context.pages()[0] ?? (await context.newPage());
    let signedIn = false;
    for (const [name, path, needsUser] of pages) {
      if (needsUser && !signedIn) {
        await signIn(page, "demo@modelify.dev", "Modelify-Demo-2026");
        await page.waitForURL((u) => u.pathname === "/dashboard");
        signedIn = true;
      }
      await page.goto(path);
      await page.waitForLoadState("networkidle");
      await page.screenshot({ path: `screenshots/${name}-${label}.png`, fullPage: true });
    }
    // An error state: the sign-up form after a failed submit.
    await context.close();
  }
  const context = await launch();
  const page = context.pages()[0] ?? (await context.newPage());
  await page.goto("/auth?mode=signup");
  await page.getByRole("button", { name: "Create Account" }).click();
  await page.getByText("First name is required").waitFor();
  await page.screenshot({ path: "screenshots/auth-signup-errors-desktop.png", fullPage: true });
  await context.close();
} finally {
  await site.stop();
}
console.log("Screenshots written to screenshots/");
