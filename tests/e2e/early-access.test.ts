// Acceptance of the early-access programme, in a real browser against the built site: a visitor
// joins the waitlist; the admin grants the entry; the key from the outbox is redeemed by the new
// user right after sign-up (the e-mail's link keeps the key through sign-up and confirmation);
// the dashboard shows early access with its expiry; the admin statistics change.
import type { Page } from "@playwright/test";
import { signIn, signUpAndConfirm, uniqueEmail, waitForMail } from "./browser.ts";
import { expect, test } from "./fixtures.ts";

async function stat(page: Page, testId: string): Promise<number> {
  return Number(await page.getByTestId(testId).textContent());
}

test("a visitor joins, is granted a key by the admin, signs up from the key's link and has early access", async ({ page, newClient }) => {
  const email = uniqueEmail("waiting");

  // The visitor joins the waitlist; a confirmation arrives once.
  await page.goto("/early-access");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("First name").fill("Mary");
  await page.getByLabel("Last name").fill("Jackson");
  await page.getByLabel("Company").fill("Langley Research");
  await page.getByRole("button", { name: "Join the Waitlist" }).click();
  await expect(page.getByRole("status")).toContainText("You're on the list!");
  await waitForMail(email, /You're on the Modelify waitlist/);

  // The admin finds the entry and grants it; the statistics before and after.
  const admin = await newClient();
  await signIn(admin, "admin@modelify.dev", "Modelify-Admin-2026");
  await admin.waitForURL((url) => url.pathname === "/dashboard");
  await admin.goto("/dashboard/admin/early-access");
  const before = { granted: await stat(admin, "stat-granted"), used: await stat(admin, "stat-used"), waitlist: await stat(admin, "stat-waitlist") };
  const search = admin.getByRole("search").filter({ has: admin.locator("#waitlist-q") });
  await search.getByLabel("Search").fill(email);
  await search.getByRole("button", { name: "Search" }).click();
  const row = admin.getByTestId("waitlist-table").getByRole("row", { name: new RegExp(email) });
  await expect(row).toContainText("Langley Research");
  await row.getByRole("button", { name: "Grant early access" }).click();
  await expect(admin.getByRole("status").filter({ hasText: `the key was e-mailed to ${email}` })).toBeVisible();
  // Granted entries leave the "waiting" list.
  await expect(row).toHaveCount(0);
  await expect(admin.getByTestId("stat-granted")).toHaveText(String(before.granted + 1));

  // The key's e-mail: the key grouped 4-4-4-4, and a link that carries it.
  const mail = await waitForMail(email, /Your Modelify early access key/);
  const key = mail.text.match(/\b[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}\b/)?.[0];
  expect(key).toBeTruthy();
  expect(mail.links[0]).toContain(`/activate?key=${key}`);

  // The visitor opens the link signed out: the key leaves the URL and waits for the account.
  await page.goto(mail.links[0]!);
  await expect(page).toHaveURL(/\/activate$/);
  await expect(page.getByText(`Your key ending in ${key!.slice(-4)} is ready`)).toBeVisible();
  await page.getByRole("link", { name: "Create Account" }).click();
  await page.getByLabel("First name").fill("Mary");
  await page.getByLabel("Last name").fill("Jackson");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Phone number").fill("555 010 4321");
  await page.getByLabel("Security question").selectOption("first_pet");
  await page.getByLabel("Security answer").fill("Comet");
  await page.getByLabel("Password", { exact: true }).fill("Sunny-Day-42");
  await page.getByLabel("Confirm password").fill("Sunny-Day-42");
  await page.getByRole("button", { name: "Create Account" }).click();
  await page.getByText("Account created successfully!").waitFor();
  const confirmation = await waitForMail(email, /Confirm your Modelify account/);
  await page.goto(confirmation.links[0]!);

  // Confirmed and signed in: straight to the waiting key, filled in; one click redeems it.
  await page.waitForURL((url) => url.pathname === "/activate");
  await expect(page.getByLabel("Activation key")).toHaveValue(key!);
  await page.getByRole("button", { name: "Activate Early Access" }).click();
  await expect(page.getByTestId("redeem-success")).toContainText("Early access activated!");
  const until = new Date(Date.now() + 90 * 24 * 60 * 60 * 1000).toLocaleDateString("en-US", {
    year: "numeric",
    month: "short",
    day: "numeric",
    timeZone: "UTC",
  });
  await expect(page.getByTestId("redeem-success")).toContainText(until);

  // The dashboard shows early access with its expiry, and what it unlocks.
  await page.getByRole("link", { name: "Go to Dashboard" }).click();
  await expect(page.getByTestId("early-access-status")).toContainText(`Active until ${until}`);
  await page.goto("/dashboard/analytics");
  await expect(page.getByRole("heading", { name: "Premium Feature" })).toHaveCount(0);
  await page.goto("/dashboard/downloads");
  await expect(page.getByText("Subscription Required")).toHaveCount(0);

  // The admin's statistics changed: one more key used; the entry no longer waits.
  await admin.goto("/dashboard/admin/early-access");
  await expect(admin.getByTestId("stat-used")).toHaveText(String(before.used + 1));
  await expect(admin.getByTestId("stat-granted")).toHaveText(String(before.granted + 1));
  await expect(admin.getByTestId("stat-waitlist")).toHaveText(String(before.waitlist));
});

test("a signed-in user redeems a key on the dashboard; a used or mistyped key gets its own message", async ({ page, newClient }) => {
  const admin = await newClient();
  await signIn(admin, "admin@modelify.dev", "Modelify-Admin-2026");
  await admin.waitForURL((url) => url.pathname === "/dashboard");
  await admin.goto("/dashboard/admin/early-access");
  // One unassigned key, as a CSV download.
  await admin.getByLabel("Unassigned keys").fill("1");
  const download = admin.waitForEvent("download");
  await admin.getByRole("button", { name: "Create N keys (CSV)" }).click();
  const csv = await (await (await download).createReadStream()).toArray();
  const key = Buffer.concat(csv).toString("utf8").trim().split("\r\n")[1]!.split(",")[0]!;
  expect(key).toMatch(/^[A-Z0-9]{4}(-[A-Z0-9]{4}){3}$/);

  const member = page;
  await signUpAndConfirm(member, uniqueEmail("redeemer"));
  const card = member.getByTestId("early-access-card");
  await card.getByLabel("Activation key").fill("not a key");
  await card.getByRole("button", { name: "Activate Early Access" }).click();
  await expect(card.getByRole("alert")).toHaveText("Please enter a 16-character activation key (letters and numbers).");
  // Lower case and without dashes is the same key.
  await card.getByLabel("Activation key").fill(key.replaceAll("-", "").toLowerCase());
  await card.getByRole("button", { name: "Activate Early Access" }).click();
  await expect(member.getByTestId("early-access-status")).toContainText("Active until");

  // The same key again, by someone else: already used.
  const other = await newClient();
  await signUpAndConfirm(other, uniqueEmail("latecomer"));
  await other.getByTestId("early-access-card").getByLabel("Activation key").fill(key);
  await other.getByTestId("early-access-card").getByRole("button", { name: "Activate Early Access" }).click();
  await expect(other.getByTestId("early-access-card").getByRole("alert")).toHaveText("This activation key has already been used.");
});
