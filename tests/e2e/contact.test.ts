// Contact Support reaches someone: from the footer's dialog a visitor sends a message; the support
// mailbox gets the message and the sender our fixed acknowledgement; the confirmation shows for
// 3 s, then an empty form.
import { hydrated, uniqueEmail, waitForMail } from "./browser.ts";
import { expect, test } from "./fixtures.ts";

test("a visitor sends a message from the footer's Contact Support dialog", async ({ page }) => {
  const email = uniqueEmail("asker");
  await page.goto("/");
  await hydrated(page);
  await page.getByRole("contentinfo").getByRole("link", { name: "Contact Support" }).click();
  const dialog = page.getByRole("dialog", { name: "Contact Support" });
  await expect(dialog).toBeVisible();
  await expect(page).toHaveURL(/modal=contact/);
  await expect(dialog).toContainText("within 24 hours");
  await dialog.getByLabel("Name").fill("Dorothy Vaughan");
  await dialog.getByLabel("Email").fill(email);
  await dialog.getByLabel("Subject").fill("Where do I put my key?");
  await dialog.getByLabel("Priority").selectOption("high");
  await dialog.getByLabel("Message").fill("I bought a subscription.\nWhere does the OpenAI key go?");
  await dialog.getByRole("button", { name: "Send Message" }).click();
  const sentAt = Date.now();
  await expect(dialog.getByTestId("contact-sent")).toContainText("Message sent!");
  // After 3 s the form is back, empty.
  await expect(dialog.getByLabel("Subject")).toBeVisible({ timeout: 6000 });
  expect(Date.now() - sentAt).toBeGreaterThanOrEqual(2500);
  await expect(dialog.getByLabel("Subject")).toHaveValue("");

  // The visitor is not signed in: the acknowledgement quotes nothing they typed.
  const ack = await waitForMail(email, /We received your message/);
  expect(ack.text).toContain("within 24 hours");
  expect(ack.text).not.toContain("Where does the OpenAI key go?");
  const inbox = await waitForMail("support@modelify.dev", /Where do I put my key\?/);
  expect(inbox.subject).toBe("[Support · high] Where do I put my key?");
  expect(inbox.text).toContain(`Dorothy Vaughan <${email}>`);
});

test("without JavaScript the dialog's form posts to /contact and shows the answer", async ({ browser, baseURL }) => {
  const context = await browser.newContext({ javaScriptEnabled: false, baseURL });
  const page = await context.newPage();
  await page.goto("/?modal=contact");
  const dialog = page.getByRole("dialog", { name: "Contact Support" });
  await dialog.getByLabel("Name").fill("Mary Jackson");
  await dialog.getByLabel("Email").fill("not-an-address");
  await dialog.getByRole("button", { name: "Send Message" }).click();
  await expect(page).toHaveURL(/\/contact$/);
  await expect(page.getByText("Please enter a valid email address")).toBeVisible();
  await expect(page.getByText("Subject is required")).toBeVisible();
  await context.close();
});

// The form's schema stays on the server (issue 31: CHECKED_ON_THE_SERVER in components/forms.tsx):
// with JavaScript, a submit's errors are the action's answer, shown beside their fields.
test("with JavaScript the server's errors show beside their fields, in the dialog and on /contact", async ({ page }) => {
  await page.goto("/");
  await hydrated(page);
  // Opened from the footer, as a visitor does: its code then is in (a dialog server-rendered from
  // ?modal=contact posts natively until its lazily loaded code takes over).
  await page.getByRole("contentinfo").getByRole("link", { name: "Contact Support" }).click();
  const dialog = page.getByRole("dialog", { name: "Contact Support" });
  await dialog.getByLabel("Name").fill("Katherine Johnson");
  await dialog.getByLabel("Email").fill("not-an-address");
  await dialog.getByRole("button", { name: "Send Message" }).click();
  await expect(dialog.getByLabel("Email")).toHaveAccessibleDescription("Please enter a valid email address");
  await expect(dialog.getByLabel("Subject")).toHaveAccessibleDescription("Subject is required");
  // The fetcher's answer: the dialog stays open on the page it was opened from.
  await expect(page).toHaveURL(/modal=contact/);

  await page.goto("/contact");
  await hydrated(page);
  await page.getByLabel("Email").fill("still@not");
  await page.getByRole("button", { name: "Send Message" }).click();
  await expect(page.getByLabel("Email")).toHaveAccessibleDescription("Please enter a valid email address");
  await expect(page.getByLabel("Name")).toHaveAttribute("aria-invalid", "true");
});
