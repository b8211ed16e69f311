// The /auth forms' own check loads with the first focus, not with the page (routes/auth/index.tsx): the
// forms behave as before while it is on its way, and without it or without JavaScript the
// server's check shows the same words in the same places.
import type { Page, Request } from "@playwright/test";
import { afterRender, clientContextOptions, hydrated } from "./browser.ts";
import { expect, test } from "./fixtures.ts";

const CHECK = /\/assets\/auth\.validate-[\w-]+\.js$/;
// The form's own requests (React Router posts to /auth.data), not the page-view beacon to /events
// nor the passkey autofill's challenge (/auth/passkey/options).
const isAuthPost = (request: Request) => {
  const { pathname } = new URL(request.url());
  return request.method() === "POST" && pathname.startsWith("/auth") && !pathname.startsWith("/auth/passkey/");
};

/** The sign-up page, hydrated, with the check's module held back until `release()`. */
async function signUpWithCheckHeld(page: Page) {
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(CHECK, async (route) => {
    await released;
    await route.continue();
  });
  const posts: Request[] = [];
  page.on("request", (request) => {
    if (isAuthPost(request)) posts.push(request);
  });
  await page.goto("/auth?mode=signup");
  await hydrated(page);
  return { posts, release };
}

test("the page loads without the check; a submit made before it arrives is checked in the browser", async ({ page }) => {
  const loaded: string[] = [];
  page.on("request", (request) => {
    if (CHECK.test(request.url())) loaded.push(request.url());
  });
  const { posts, release } = await signUpWithCheckHeld(page);
  expect(loaded).toEqual([]);

  await page.getByRole("button", { name: "Create Account" }).click();
  await expect.poll(() => loaded.length).toBe(1);
  release();
  await expect(page.getByText("First name is required")).toBeVisible();
  await expect(page.getByText("Please select a security question")).toBeVisible();
  expect(posts).toEqual([]);
});

test("a field left before the check arrives is checked when it does", async ({ page }) => {
  const { posts, release } = await signUpWithCheckHeld(page);
  const requested = page.waitForRequest(CHECK);
  await page.getByLabel("First name").focus();
  await page.getByLabel("Last name").focus();
  // The first focus asked for the check (held back), and the page has rendered what leaving the
  // field did: nothing, until the check is there.
  await requested;
  await afterRender(page);
  await expect(page.getByText("First name is required")).toHaveCount(0);
  release();
  await expect(page.getByText("First name is required")).toBeVisible();
  await expect(page.getByText("Last name is required")).toHaveCount(0);
  expect(posts).toEqual([]);
});

test("when the check cannot load, leaving a field asks nothing and the server's check answers the submit", async ({ page }) => {
  await page.route(CHECK, (route) => route.abort());
  const posts: Request[] = [];
  page.on("request", (request) => {
    if (isAuthPost(request)) posts.push(request);
  });
  await page.goto("/auth?mode=signin");
  await hydrated(page);
  const failed = page.waitForEvent("requestfailed", (request) => CHECK.test(request.url()));
  await page.getByLabel("Email").fill("ada.example.com");
  await page.getByLabel("Password").fill("short");
  // The first focus asked for the check and it failed to load, and the page has rendered what
  // leaving the e-mail field did. (A post it had sent would also be the first of `posts` below.)
  await failed;
  await afterRender(page);
  expect(posts).toEqual([]);
  const answer = page.waitForResponse((response) => isAuthPost(response.request()));
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
  expect((await answer).status()).toBe(400);
  await expect(page.getByText("Please enter a valid email address")).toBeVisible();
  await expect(page.getByText("Password must be at least 8 characters long")).toBeVisible();
  expect(posts).toHaveLength(1);
});

test("without JavaScript every form posts and shows the server's words", async ({ browser }) => {
  const context = await browser.newContext({ ...clientContextOptions(), javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto("/auth?mode=signin");
  await page.getByLabel("Email").fill("ada.example.com");
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
  await expect(page.getByText("Please enter a valid email address")).toBeVisible();
  await expect(page.getByText("Password must be at least 8 characters long")).toBeVisible();

  await page.goto("/auth?mode=forgot-password");
  await page.getByRole("button", { name: "Send Reset Link" }).click();
  await expect(page.getByText("Please enter a valid email address")).toBeVisible();
  await context.close();
});

// Issue 46: the address after a refused sign-in or a sent reset link is the page's own, without
// the "?index" an index route's forms post to, with JavaScript and without.
for (const javaScriptEnabled of [true, false]) {
  test(`a refused sign-in and a reset request keep the page's own address (${javaScriptEnabled ? "with" : "without"} JavaScript)`, async ({ browser }) => {
    const context = await browser.newContext({ ...clientContextOptions(), javaScriptEnabled });
    const page = await context.newPage();
    await page.goto("/auth?mode=signin");
    await page.getByLabel("Email").fill("demo@modelify.dev");
    await page.getByLabel("Password").fill("Not-The-Password-1");
    await page.getByRole("button", { name: "Sign In", exact: true }).click();
    await expect(page.getByText("Invalid email or password")).toBeVisible();
    expect(new URL(page.url()).search).toBe("?mode=signin");

    await page.goto("/auth?mode=forgot-password");
    await page.getByLabel("Email").fill("nobody@example.com");
    await page.getByRole("button", { name: "Send Reset Link" }).click();
    await expect(page.getByText("Password reset email sent! Check your inbox.")).toBeVisible();
    expect(new URL(page.url()).search).toBe("?mode=forgot-password");
    await context.close();
  });
}
