// A sign-in that cannot reach the server shows the network text, not a blank page.
import { hydrated } from "./browser.ts";
import { test } from "./fixtures.ts";

test("offline sign-in shows the network connection message with Try Again", async ({ page, context }) => {
  await page.goto("/auth?mode=signin");
  await hydrated(page); // hydrated: the form submits with fetch
  await page.getByLabel("Email").fill("demo@modelify.dev");
  await page.getByLabel("Password").fill("Modelify-Demo-2026");
  await context.setOffline(true);
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
  await page.getByText("Network connection issue. Please check your internet connection and try again.").waitFor();
  await page.getByRole("link", { name: "Try Again" }).waitFor();
  await context.setOffline(false);
});
