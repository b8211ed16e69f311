// Acceptance (issue 46, item 2): a phone is never told it is a Windows computer. An iPhone that
// has just started the trial, and an Android phone of the same account without JavaScript, get no
// recommended build and no "Download Now"; they are told Modelify is a desktop app, and can mail
// themselves the link to the Downloads page, which arrives at the account's address.
import type { Browser, Page } from "@playwright/test";
import {
  baseUrl,
  clientContextOptions,
  HYDRATION_PROBE,
  hydrated,
  signIn,
  signUpAndConfirm,
  subscribeWithTestCard,
  uniqueEmail,
  waitForMail,
} from "./browser.ts";
import { axeFindings, expectAccessibleDialog } from "./axe.ts";
import { expect, test } from "./fixtures.ts";

const IPHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";
const ANDROID = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36";
const SUBJECT = /Download Modelify on your computer/;

async function phone(browser: Browser, userAgent: string, javaScriptEnabled = true): Promise<Page> {
  const context = await browser.newContext({
    ...clientContextOptions({ width: 390, height: 844 }),
    userAgent,
    isMobile: true,
    hasTouch: true,
    javaScriptEnabled,
  });
  await context.addInitScript(HYDRATION_PROBE);
  return context.newPage();
}

/** No build is recommended and no installer offered; the desktop-app explanation is. */
async function expectDesktopOnly(page: Page) {
  await expect(page.getByTestId("desktop-only").getByText("Modelify is a desktop app")).toBeVisible();
  await expect(page.getByText(/We detected (Windows|macOS|Linux)/)).toHaveCount(0);
  await expect(page.getByText(/Detected OS/)).toHaveCount(0);
  await expect(page.getByRole("button", { name: /Download Now|Download for (Windows|macOS|Linux)/ })).toHaveCount(0);
}

test("a phone gets no Windows installer, and can e-mail itself the link to the Downloads page", async ({ browser }) => {
  test.setTimeout(90_000);
  const email = uniqueEmail("on-phone");
  const iphone = await phone(browser, IPHONE);
  await signUpAndConfirm(iphone, email);
  await subscribeWithTestCard(iphone);

  // Right after the checkout: the post-payment dialog.
  const dialog = iphone.getByRole("dialog", { name: "Download Modelify" });
  await expect(dialog).toBeVisible();
  await expectDesktopOnly(iphone);
  await expect(dialog.getByText("You are on an iPhone.")).toBeVisible();
  await expectAccessibleDialog(iphone, "post-payment-title");

  // The Downloads tab, with JavaScript: the answer shows in place.
  await iphone.goto("/dashboard/downloads");
  await hydrated(iphone);
  await expectDesktopOnly(iphone);
  await expect(iphone.getByText("You are on an iPhone.")).toBeVisible();
  const sentAt = Date.now() - 1000;
  await iphone.getByRole("button", { name: "E-mail me the download link" }).click();
  await expect(iphone.getByRole("status").getByText(`We sent a link to ${email}.`)).toBeVisible();
  expect(new URL(iphone.url()).pathname).toBe("/dashboard/downloads");
  // The sweep looks at this page with a desktop browser: the phone's view is checked here.
  expect(await axeFindings(iphone, "phone downloads, link sent")).toEqual([]);
  const mail = await waitForMail(email, SUBJECT, sentAt);
  expect(mail.links).toEqual([`${baseUrl()}/dashboard/downloads`]);

  // An Android phone of the same account, without JavaScript: a plain form post, then the page
  // with what happened.
  const android = await phone(browser, ANDROID, false);
  await signIn(android, email, "Sunny-Day-42");
  await android.waitForURL((url) => url.pathname === "/dashboard");
  await android.goto("/dashboard/downloads");
  await expectDesktopOnly(android);
  await expect(android.getByText("You are on an Android phone.")).toBeVisible();
  await android.getByRole("button", { name: "E-mail me the download link" }).click();
  await expect(android.getByText(`We sent a link to ${email}.`)).toBeVisible();
  await expectDesktopOnly(android);
  await waitForMail(email, SUBJECT, mail.createdAt + 1);

  await iphone.context().close();
  await android.context().close();
});
