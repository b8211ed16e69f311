// The Content-Security-Policy holds in a real browser: pages hydrate and run with nonced scripts
// only, and nothing on the main pages is blocked.
import { signUpAndConfirm, uniqueEmail } from "./browser.ts";
import { expect, test } from "./fixtures.ts";

test("main pages hydrate under the CSP without a single violation", async ({ page }) => {
  const violations: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
  });
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) => console.error(`Refused to load (CSP): ${event.violatedDirective} ${event.blockedURI}`));
  });
  await signUpAndConfirm(page, uniqueEmail("csp"));
  for (const path of ["/", "/pricing", "/changelog", "/dashboard", "/dashboard/usage", "/dashboard/billing"]) {
    const response = await page.goto(path);
    expect(response?.headers()["content-security-policy"] ?? "").toMatch(/script-src 'self' 'nonce-/);
    // Hydrated: React Router's route modules loaded. (Polled with evaluate: waitForFunction would
    // itself need 'unsafe-eval' and show up as a violation.)
    await expect
      .poll(() => page.evaluate(() => Boolean((window as unknown as { __reactRouterRouteModules?: unknown }).__reactRouterRouteModules)), {
        message: `${path} hydrates`,
      })
      .toBe(true);
  }
  await page.goto("/pricing");
  await page.getByRole("link", { name: "Start Free Trial" }).click();
  await page.getByRole("dialog").waitFor();
  expect(violations).toEqual([]);
});
