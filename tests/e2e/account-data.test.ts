// Issue 29 in a browser: "Download my data" from the profile's "Your data" card (a link once the
// file is ready, shown without a reload and mailed about: issue 46), then "Delete my account" from the Danger zone, with a subscription: the page
// says what happens, a wrong password is refused, the right one deletes and signs out.
// Screenshots at 1280 and 390 px go to /tmp/shots-29/deletion/ (SHOTS_DIR overrides).
import { mkdirSync } from "node:fs";
import type { Page } from "@playwright/test";
import { hydrated, markDocument, sameDocument, signUpAndConfirm, subscribeWithTestCard, uniqueEmail, waitForMail } from "./browser.ts";
import { expect, test } from "./fixtures.ts";

const SHOTS = process.env.SHOTS_DIR ?? "/tmp/shots-29/deletion";

/** A test hook of this worker's Stripe stand-in (tools/stripe-standin/control.mjs). */
async function standin(path: string, body: unknown = {}) {
  const response = await fetch(`${process.env.STRIPE_URL}/__control/${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(200);
}

async function shoot(page: Page, name: string) {
  mkdirSync(SHOTS, { recursive: true });
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    // From the top: a full-page shot of a scrolled page draws the sticky header mid-page.
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: `${SHOTS}/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

test("download my data, then delete the account", async ({ newClient }) => {
  test.setTimeout(120_000);
  const email = uniqueEmail("leaving");
  const page = await newClient();
  await signUpAndConfirm(page, email);
  await subscribeWithTestCard(page);

  await page.goto("/dashboard/profile");
  const data = page.getByRole("region", { name: "Your data" });
  // The export reads the account's invoices from Stripe: held there, it stays "being prepared"
  // until the test lets it go (the stand-in's hold-next).
  await standin("hold-next", { method: "GET", path: "/v1/invoices" });
  const asked = Date.now();
  await data.getByRole("button", { name: "Download my data" }).click();
  await page.waitForURL((url) => url.searchParams.get("export") === "requested");
  await expect(
    data.getByText("We are preparing your data. It takes a minute or two: the link shows below when it is ready, and we e-mail you then."),
  ).toBeVisible();
  await expect(data.getByText("the link shows here when it is ready")).toBeVisible();
  await expect(data.getByText(/reload/i)).toHaveCount(0);
  // Issue 46: the page updates itself once the file is ready, without a reload, and the owner is mailed.
  await hydrated(page);
  await page.evaluate(markDocument);
  await standin("release");
  await expect(data.getByRole("link", { name: "Download JSON" })).toBeVisible({ timeout: 20_000 });
  expect(await page.evaluate(sameDocument)).toBe(true);
  const ready = await waitForMail(email, /Your Modelify data is ready/, asked);
  expect(ready.links).toEqual([new URL("/dashboard/profile#your-data", page.url()).toString()]);
  expect(ready.text).not.toContain("/dashboard/profile/export");
  // Still at ?export=requested, but the file is ready: the notice says so, not "preparing".
  expect(new URL(page.url()).searchParams.get("export")).toBe("requested");
  await expect(data.getByText("Your data is ready: download it below.")).toBeVisible();
  await expect(data.getByText("We are preparing your data.")).toHaveCount(0);
  const [download] = await Promise.all([page.waitForEvent("download"), data.getByRole("link", { name: "Download JSON" }).click()]);
  expect(download.suggestedFilename()).toMatch(/^modelify-data-\d{4}-\d{2}-\d{2}\.json$/);
  // A second export within the hour is refused, and the page says why.
  await data.getByRole("button", { name: "Download my data" }).click();
  await page.waitForURL((url) => url.searchParams.get("export") === "too-many");
  await expect(data.getByText("You can ask for one export an hour.")).toBeVisible();
  await shoot(page, "profile-your-data-and-danger-zone");

  await page.getByRole("region", { name: "Danger zone" }).getByRole("link", { name: "Delete my account" }).click();
  await page.waitForURL((url) => url.pathname === "/dashboard/profile/delete");
  await expect(page.getByRole("heading", { level: 1, name: "Delete my account" })).toBeVisible();
  await expect(page.getByText("There is no refund for the part of the month already paid.")).toBeVisible();
  await shoot(page, "delete-page");

  await page.getByLabel("Your password").fill("Wrong-Password-1");
  await page.getByRole("button", { name: "Delete my account" }).click();
  await expect(page.getByText("That password is not right.")).toBeVisible();
  await shoot(page, "delete-wrong-password");

  await page.getByLabel("Your password").fill("Sunny-Day-42");
  await page.getByRole("button", { name: "Delete my account" }).click();
  await page.waitForURL((url) => url.pathname === "/");
  // Issue 46: the home page says what happened (the server's words for ?accountDeleted=1), until dismissed.
  const notice = page.getByRole("status").filter({ hasText: "Your account is deleted" });
  await expect(notice).toBeVisible();
  await expect(notice).toContainText("you are signed out");
  await shoot(page, "home-account-deleted");
  await notice.getByRole("link", { name: "Dismiss" }).click();
  await page.waitForURL((url) => url.pathname === "/" && url.search === "");
  await expect(notice).toHaveCount(0);
  await waitForMail(email, /Your Modelify account is deleted/);
  await page.goto("/dashboard/profile");
  await page.waitForURL((url) => url.pathname === "/auth");
});
