// Profile pictures in a real browser: the Edit Profile modal's upload controls send the file at
// once with a progress bar, refuse what the spec refuses, and the pictures load after a reload
// under the page's Content-Security-Policy. Without JavaScript the same controls are plain forms.
import type { Page, Route } from "@playwright/test";
import { hydrated, nextClientAddress, signUpAndConfirm, uniqueEmail } from "./browser.ts";
import { expect, test } from "./fixtures.ts";

// A real 2×2 PNG (made with an image encoder).
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAEklEQVQImWMwTjtjnHaGAUIBACS2BZUFBQd/AAAAAElFTkSuQmCC",
  "base64",
);

function collectCspViolations(page: Page): string[] {
  const violations: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
  });
  return violations;
}

/** Every loaded <img> whose source matches: all of them decoded (naturalWidth > 0). */
async function expectLoadedImages(page: Page, srcPart: string) {
  const images = page.locator(`img[src*="${srcPart}"]`);
  await expect(images.first()).toBeVisible();
  await expect
    .poll(() => images.evaluateAll((nodes) => nodes.map((n) => (n as HTMLImageElement).complete && (n as HTMLImageElement).naturalWidth > 0)))
    .not.toContain(false);
}

test("uploads a profile picture and a cover photo with a progress bar, and shows them after a reload", async ({ page }) => {
  const violations = collectCspViolations(page);
  await signUpAndConfirm(page, uniqueEmail("pictures"));
  await page.goto("/dashboard/profile?edit=1");
  // Hydrated (the modules load after the first paint): the progress bar needs the page's script;
  // before that the picture is a plain form post.
  await hydrated(page);
  const dialog = page.getByRole("dialog");
  // Each upload is held back until its progress bar has been seen, then let through.
  const held: Route[] = [];
  await page.route("**/dashboard/profile/image?kind=*", (route) => {
    held.push(route);
  });
  const letThrough = async () => {
    await expect.poll(() => held.length, { message: "the upload reached the network" }).toBe(1);
    await held.shift()!.continue();
  };

  await dialog.getByLabel("Profile picture", { exact: true }).setInputFiles({ name: "me.png", mimeType: "image/png", buffer: PNG });
  const avatarProgress = dialog.getByRole("progressbar", { name: "Uploading profile picture" });
  await expect(avatarProgress).toBeVisible();
  expect(Number(await avatarProgress.getAttribute("aria-valuenow"))).toBeGreaterThanOrEqual(0);
  await letThrough();
  await expect(dialog.getByText("Profile picture uploaded successfully!")).toBeVisible();
  await expect(avatarProgress).toBeHidden();

  await dialog.getByLabel("Cover photo", { exact: true }).setInputFiles({ name: "cover.png", mimeType: "image/png", buffer: PNG });
  await expect(dialog.getByRole("progressbar", { name: "Uploading cover photo" })).toBeVisible();
  await letThrough();
  await expect(dialog.getByText("Cover photo uploaded successfully!")).toBeVisible();

  await page.reload();
  await expectLoadedImages(page, "/profile.png?v=");
  await expectLoadedImages(page, "/cover.png?v=");
  expect(violations).toEqual([]);
});

test("refuses a picture that is too large before sending it, a text file named .png after the server looked at it, and says when the network fails", async ({
  page,
}) => {
  await signUpAndConfirm(page, uniqueEmail("pictures-refused"));
  await page.goto("/dashboard/profile?edit=1");
  // Hydrated: the size check runs in the page (the hydration modules load after the first paint).
  await hydrated(page);
  const dialog = page.getByRole("dialog");
  let uploads = 0;
  page.on("request", (request) => {
    if (request.url().includes("/dashboard/profile/image")) uploads++;
  });

  const big = Buffer.alloc(6 * 1024 * 1024);
  PNG.copy(big);
  await dialog.getByLabel("Profile picture", { exact: true }).setInputFiles({ name: "big.png", mimeType: "image/png", buffer: big });
  await expect(dialog.getByText("Image size must be less than 5MB.")).toBeVisible();
  expect(uploads).toBe(0);

  await dialog
    .getByLabel("Profile picture", { exact: true })
    .setInputFiles({ name: "notes.png", mimeType: "image/png", buffer: Buffer.from("These are my notes, not a picture.\n") });
  await expect(dialog.getByText("Please select a valid image file.")).toBeVisible();
  expect(uploads).toBe(1);

  await page.route("**/dashboard/profile/image?kind=*", (route) => route.abort("internetdisconnected"));
  await dialog.getByLabel("Cover photo", { exact: true }).setInputFiles({ name: "cover.png", mimeType: "image/png", buffer: PNG });
  await expect(dialog.getByText("Network error. Please check your connection and try again.")).toBeVisible();
  await expect(dialog.getByRole("progressbar")).toHaveCount(0);
});

test("uploads through the plain form when JavaScript is off", async ({ page, browser }) => {
  await signUpAndConfirm(page, uniqueEmail("pictures-nojs"));
  const context = await browser.newContext({
    javaScriptEnabled: false,
    baseURL: new URL(page.url()).origin,
    extraHTTPHeaders: { "CF-Connecting-IP": nextClientAddress() },
  });
  try {
    await context.addCookies(await page.context().cookies());
    const plain = await context.newPage();
    await plain.goto("/dashboard/profile?edit=1");
    await plain.getByLabel("Profile picture", { exact: true }).setInputFiles({ name: "me.png", mimeType: "image/png", buffer: PNG });
    await plain.getByRole("button", { name: "Upload profile picture" }).click();
    await plain.waitForURL((url) => url.searchParams.get("uploaded") === "avatar");
    await expect(plain.getByText("Profile picture uploaded successfully!")).toBeVisible();
    await expectLoadedImages(plain, "/profile.png?v=");
  } finally {
    await context.close();
  }
});

// Issue 46: the dashboard's sidebar names the account by its profile and shows its picture (it showed
// the e-mail's local part and an initial).
test("the dashboard's sidebar shows the profile's name, then its picture once one is uploaded", async ({ page }) => {
  const email = uniqueEmail("sidebar");
  await signUpAndConfirm(page, email);
  const rail = page.getByRole("complementary", { name: "Dashboard" });
  await expect(rail.getByTestId("sidebar-name")).toHaveText("Katherine Johnson");
  await expect(rail.getByText(email)).toBeVisible();
  await expect(rail.getByTestId("sidebar-avatar")).toHaveCount(0);
  await expect(rail.getByText("KJ", { exact: true })).toBeVisible();

  await page.goto("/dashboard/profile?edit=1");
  await hydrated(page);
  await page.getByRole("dialog").getByLabel("Profile picture", { exact: true }).setInputFiles({ name: "me.png", mimeType: "image/png", buffer: PNG });
  await expect(page.getByRole("dialog").getByText("Profile picture uploaded successfully!")).toBeVisible();
  await page.goto("/dashboard");
  await expect(rail.getByTestId("sidebar-avatar")).toHaveAttribute("src", /^\/profile-images\/[^/]+\/profile\.png\?v=/);
  await expect.poll(() => rail.getByTestId("sidebar-avatar").evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0)).toBe(true);
});
