// A page hydrates with React Router's own <Scripts>: its modules preloaded from the <head>, the page
// interactive once they have run, without an error or a hydration warning in the console.
import { hydrated, pageErrors } from "./browser.ts";
import { expect, test } from "./fixtures.ts";

test("a page hydrates from React Router's own preloaded modules, without an error or a warning", async ({ page }) => {
  const errors = pageErrors(page);
  const warnings: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "warning" || message.type() === "error") warnings.push(message.text());
  });
  await page.goto("/auth?mode=signup");
  await hydrated(page);
  const modulesInHead = await page.evaluate(() => document.head.querySelectorAll('link[rel="modulepreload"]').length);
  expect(modulesInHead).toBeGreaterThan(0);
  // Hydrated: the password strength meter reacts as the password is typed.
  await page.getByLabel("Password", { exact: true }).fill("aB3$efgh-long-pass");
  await expect(page.getByText(/Strong|Very strong/i).first()).toBeVisible();
  expect(errors).toEqual([]);
  expect(warnings).toEqual([]);
});
