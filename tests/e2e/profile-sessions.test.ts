// Acceptance: one person signed in on two browsers ends the other one from the profile's
// "Sessions and devices"; that browser's next page is the sign-in page.
import { signIn, signUpAndConfirm, uniqueEmail } from "./browser.ts";
import { expect, test } from "./fixtures.ts";

test("ending another browser's session from the profile signs it out", async ({ newClient }) => {
  const email = uniqueEmail("sessions");
  const password = "Sunny-Day-42";
  const first = await newClient();
  const second = await newClient();
  await signUpAndConfirm(first, email, password);
  await signIn(second, email, password);
  await second.waitForURL((url) => url.pathname === "/dashboard");

  await first.goto("/dashboard/profile");
  const card = first.getByRole("region", { name: "Sessions and devices" });
  await expect(card.getByTestId("session")).toHaveCount(2);
  await expect(card.getByText("This device")).toHaveCount(1);
  await card.getByRole("button", { name: /^End session: / }).click();

  await first.waitForURL((url) => url.pathname === "/dashboard/profile" && url.searchParams.get("sessions") === "ended");
  await expect(first.getByRole("status").filter({ hasText: "Session ended." })).toBeVisible();
  await expect(card.getByTestId("session")).toHaveCount(1);
  await expect(card.getByRole("button", { name: /^End session: / })).toHaveCount(0);
  await expect(card.getByText("No other sessions are signed in.")).toBeVisible();

  await second.goto("/dashboard");
  await second.waitForURL((url) => url.pathname === "/auth");
  // The browser that ended it is still signed in.
  await first.goto("/dashboard");
  await expect(first).toHaveURL(/\/dashboard$/);
});
