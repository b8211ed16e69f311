// The FAQ on the landing page: nine questions, the first answer open, one open at a time, with
// or without JavaScript.
import { expect, test } from "./fixtures.ts";

for (const javaScriptEnabled of [true, false]) {
  test(`the FAQ opens one answer at a time (JavaScript ${javaScriptEnabled ? "on" : "off"})`, async ({ browser, baseURL }) => {
    const context = await browser.newContext({ javaScriptEnabled, baseURL });
    const page = await context.newPage();
    await page.goto("/#faq");
    const faq = page.locator("#faq");
    const items = faq.locator("details");
    await expect(items).toHaveCount(9);
    await expect(faq.locator("details[open]")).toHaveCount(1);
    await expect(items.first()).toHaveAttribute("open", "");
    await faq.getByText("How much does it cost?").click();
    await expect(faq.locator("details[open]")).toHaveCount(1);
    await expect(page.getByTestId("faq-price")).toHaveAttribute("open", "");
    await expect(page.getByTestId("faq-price")).toContainText("7-day free trial");
    await faq.getByText("How much does it cost?").click();
    await expect(faq.locator("details[open]")).toHaveCount(0);
    await context.close();
  });
}
