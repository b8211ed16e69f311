// Acceptance: a person signs up, confirms through the outbox link, lands on the dashboard,
// signs out, signs in, resets the password through the outbox and signs in with the new one.
import type { Page } from "@playwright/test";
import { hydrated, newClientPage, signIn, uniqueEmail, waitForMail } from "./browser.ts";
import { expect, test } from "./fixtures.ts";

// One person's journey: the steps run in order on one page, and stop at the first that fails.
test.describe.configure({ mode: "serial" });

let page: Page;
test.beforeAll(async ({ browser }) => {
  page = await newClientPage(browser);
});
test.afterAll(async () => {
  await page?.context().close();
});

const email = uniqueEmail("journey");
const password = "Sunny-Day-42";
const newPassword = "Brand-New-Pass-7";

async function signOut() {
  await page.getByRole("link", { name: "Sign Out" }).first().click();
  const dialog = page.getByRole("dialog", { name: "Sign Out" });
  await dialog.waitFor();
  await dialog.getByRole("button", { name: "Sign Out" }).click();
  await page.waitForURL((url) => url.pathname === "/");
}

test("sign up with the spec's validation and strength meter", async () => {
  await page.goto("/auth?mode=signup");
  await page.getByRole("heading", { name: "Create Account" }).waitFor();
  // Client-side validation and the strength meter need the page hydrated (a cold build is slow).
  await hydrated(page);
  // Client-side validation shows the spec's words on blur.
  await page.getByLabel("First name").focus();
  await page.getByLabel("Last name").focus();
  await page.getByText("First name is required").waitFor();

  await page.getByLabel("First name").fill("Grace");
  await page.getByLabel("Last name").fill("Hopper");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Phone number").fill("555 010 1234");
  await page.getByLabel("Security question").selectOption("first_car");
  await page.getByLabel("Security answer").fill("Ford");
  const meter = page.getByTestId("password-strength");
  await page.getByLabel("Password", { exact: true }).fill("abc");
  await expect(meter).toHaveAttribute("data-colour", "red");
  await page.getByLabel("Password", { exact: true }).fill("abcdefgh");
  await expect(meter).toHaveAttribute("data-colour", "orange");
  await page.getByLabel("Password", { exact: true }).fill("Abcdefgh");
  await expect(meter).toHaveAttribute("data-colour", "yellow");
  await page.getByLabel("Password", { exact: true }).fill(password);
  await expect(meter).toHaveAttribute("data-colour", "green");
  await page.getByLabel("Confirm password").fill("Sunny-Day-43");
  await page.getByRole("button", { name: "Create Account" }).click();
  await page.getByText("Passwords do not match").waitFor();
  await page.getByLabel("Confirm password").fill(password);
  await page.getByRole("button", { name: "Create Account" }).click();
  await page.getByText("Account created successfully!").waitFor();
  await page.getByRole("link", { name: "Continue to Home" }).waitFor();
});

test("confirm through the outbox link and land on the dashboard", async () => {
  const mail = await waitForMail(email, /Confirm your Modelify account/);
  await page.goto(mail.links[0]!);
  await page.waitForURL((url) => url.pathname === "/dashboard");
  // The first session: "Welcome"; "Welcome back" from the next sign-in on.
  await page.getByRole("heading", { name: "Welcome, Grace Hopper" }).waitFor();
  await page.getByText("No active subscription").waitFor();
  await expect(page.getByTestId("subscription-status")).toHaveText("Inactive");
});

test("sign out with confirmation, then sign in again", async () => {
  await signOut();
  await page.getByRole("link", { name: "Sign In" }).first().waitFor();
  await signIn(page, email, "Wrong-Pass-99");
  await page.getByText("Invalid email or password. Please check your credentials and try again.").waitFor();
  // Signed out, this browser having signed in before: no "Back to Dashboard", which would lead
  // straight back here (issue 46).
  await expect(page.getByText("Back to Dashboard")).toHaveCount(0);
  await signIn(page, email, password);
  await page.getByText("Sign in successful! Redirecting to dashboard...").waitFor();
  await page.waitForURL((url) => url.pathname === "/dashboard");
  await page.getByRole("heading", { name: "Welcome back, Grace Hopper" }).waitFor();
});

test("reset the password through the outbox and sign in with the new one", async () => {
  await signOut();
  const started = Date.now();
  await page.goto("/auth?mode=signin");
  await page.getByRole("link", { name: "Forgot password?" }).click();
  await page.getByRole("heading", { name: "Reset Password" }).waitFor();
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Send Reset Link" }).click();
  await page.getByText("Password reset email sent! Check your inbox.").waitFor();

  const mail = await waitForMail(email, /Reset your Modelify password/, started - 1000);
  await page.goto(mail.links[0]!);
  await page.waitForURL((url) => url.pathname === "/auth/reset-password");
  await page.getByRole("heading", { name: "Reset Your Password" }).waitFor();
  await page.getByLabel("New Password").fill("short");
  await page.getByLabel("Confirm Password").fill("short");
  await page.getByRole("button", { name: "Update Password" }).click();
  // The reset page asks for sign-in's 8 characters, in sign-in's words.
  await page.getByText("Password must be at least 8 characters long").waitFor();
  await page.getByLabel("New Password").fill(newPassword);
  await page.getByLabel("Confirm Password").fill(newPassword);
  await page.getByRole("button", { name: "Update Password" }).click();
  await page.getByRole("heading", { name: "Password Updated!" }).waitFor();
  // The first page after a reset lists the account's ways in to check (issue 45).
  await page.waitForURL((url) => url.pathname === "/dashboard/profile/access" && url.searchParams.get("after") === "reset");
  await page.getByRole("heading", { name: "Your account's access" }).waitFor();

  await signOut();
  await signIn(page, email, password);
  await page.getByText("Invalid email or password. Please check your credentials and try again.").waitFor();
  await signIn(page, email, newPassword);
  await page.waitForURL((url) => url.pathname === "/dashboard");
});
