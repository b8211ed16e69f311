// The profile journey of issue 10 in a real browser: username with its confirmation dialog,
// auto-save after 10 s, the local backup restored after a reload, Reset All Changes.
import { PROFILE } from "../../app/lib/constants/index.ts";
import { expectAccessibleDialog } from "./axe.ts";
import { expect, test } from "./fixtures.ts";
import { afterRender, clientContextOptions, hydrated, signUpAndConfirm, uniqueEmail, waitForMail } from "./browser.ts";

// Issue 46: the button and the dialog it opens have one name (the button said "Edit Account").
test("the profile's Edit Profile button opens the Edit Profile dialog, with and without JavaScript", async ({ page, browser }) => {
  await signUpAndConfirm(page, uniqueEmail("edit-name"));
  await page.goto("/dashboard/profile");
  await hydrated(page);
  const button = page.getByRole("link", { name: "Edit Profile", exact: true });
  await button.click();
  await expect(page.getByRole("dialog", { name: "Edit Profile" })).toBeVisible();
  await expect(page.getByText("Edit Account")).toHaveCount(0);

  const context = await browser.newContext({ ...clientContextOptions(), javaScriptEnabled: false, storageState: await page.context().storageState() });
  const plain = await context.newPage();
  await plain.goto("/dashboard/profile");
  await plain.getByRole("link", { name: "Edit Profile", exact: true }).click();
  await expect(plain.getByRole("dialog", { name: "Edit Profile" })).toBeVisible();
  await context.close();
});

test("a user sets a username, edits fields that auto-save after 10 s and gets unsaved changes back after a reload", async ({ page }) => {
  test.setTimeout(120_000);
  await signUpAndConfirm(page, uniqueEmail("profile"));
  // The page's clock is the test's: it runs on its own, and the 10 s countdown is moved through.
  await page.clock.install();
  await page.goto("/dashboard/profile");
  // Hydrated first (the modules load after the first paint): the username's confirmation and the
  // countdown run in the page.
  await hydrated(page);
  await expect(page.getByRole("heading", { name: "Katherine Johnson" })).toBeVisible();
  await expect(page.getByText("No username yet")).toBeVisible();

  // The username needs its confirmation; Escape closes only the confirmation.
  await page.getByRole("link", { name: "Edit Profile", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Edit Profile" });
  await expect(dialog).toBeVisible();
  // Letters without vowels or digits: a generated name can never spell a refused word.
  const username = `kj_${Array.from(crypto.getRandomValues(new Uint8Array(8)), (b) => "bcdfgjpqvwxyz"[b % 13]).join("")}`;
  await dialog.getByLabel("Username").fill(username);
  await dialog.getByRole("button", { name: "Confirm Username Change" }).click();
  const confirm = page.getByRole("alertdialog", { name: "Confirm Username Change" });
  await expect(confirm).toContainText(`@${username}`);
  await expectAccessibleDialog(page, "confirm-username-title");
  await page.keyboard.press("Escape");
  await expect(confirm).toBeHidden();
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: "Confirm Username Change" }).click();
  await confirm.getByRole("button", { name: "Confirm" }).click();
  await expect(page.getByText("Profile saved successfully!")).toBeVisible();
  await expect(page.getByText(`@${username}`)).toBeVisible();

  // A second change is refused for 14 days: the field says so and is disabled.
  await page.getByRole("link", { name: "Edit Profile", exact: true }).click();
  await expect(dialog.getByLabel("Username")).toBeDisabled();
  await expect(dialog.getByText("Can change in 14 days")).toBeVisible();

  // Any change starts the 10 s countdown; the save happens on its own.
  await dialog.getByLabel("Location").fill("Hampton, Virginia");
  await dialog.getByLabel("Company").fill("NASA Langley");
  await expect(dialog.getByRole("progressbar", { name: "Auto-save countdown" })).toBeVisible();
  // Nothing is saved before the countdown's end; at its end, the save goes by itself.
  await page.clock.runFor(PROFILE.autoSaveMs - 1_000);
  await expect(dialog.getByText("Changes auto-saved!")).toHaveCount(0);
  await page.clock.runFor(1_000);
  await expect(dialog.getByText("Changes auto-saved!")).toBeVisible();
  await expect(dialog.getByRole("progressbar", { name: "Auto-save countdown" })).toBeHidden();

  // Unsaved changes survive a reload (the browser asks first) and can be reset.
  await dialog.getByLabel("Bio").fill("Computed trajectories by hand.");
  page.on("dialog", (d) => d.accept());
  await page.reload();
  await expect(page.getByText("Restored unsaved changes from previous session!")).toBeVisible();
  await expect(dialog.getByLabel("Bio")).toHaveValue("Computed trajectories by hand.");
  await dialog.getByRole("button", { name: "Reset All Changes" }).click();
  await expect(dialog.getByText("All changes reset!")).toBeVisible();
  await expect(dialog.getByLabel("Bio")).toHaveValue("");

  // What was auto-saved is on the profile after a reload.
  await page.goto("/dashboard/profile");
  await expect(page.getByText("Hampton, Virginia")).toBeVisible();
  await expect(page.getByText("NASA Langley")).toBeVisible();
});

// Conform checks a field on blur by sending a submit event with its own intent. Those must not
// count as the user's submit: a blur once opened the username confirmation on its own, and a blur
// during an auto-save made its end close the dialog as if Save had been pressed.
test("leaving a field neither asks to confirm the username nor turns an auto-save into a save; one countdown sends one save", async ({ page }) => {
  test.setTimeout(90_000);
  await signUpAndConfirm(page, uniqueEmail("profile-blur"));
  await page.clock.install();
  await page.goto("/dashboard/profile?edit=1");
  await hydrated(page);
  const dialog = page.getByRole("dialog", { name: "Edit Profile" });
  const confirm = page.getByRole("alertdialog", { name: "Confirm Username Change" });
  // React has rendered whatever the blur's check set in motion.
  const settle = () => afterRender(page);

  await dialog.getByLabel("Username").fill("kj_blrtst");
  await dialog.getByLabel("Username").press("Tab");
  await settle();
  await expect(confirm).toHaveCount(0);
  await expect(dialog.getByRole("button", { name: "Confirm Username Change" })).toBeVisible();
  await dialog.getByRole("button", { name: "Reset Username" }).click();

  // The auto-save's request is held until the blur has happened while it is under way.
  const posts: string[] = [];
  let blurred = () => {};
  const afterBlur = new Promise<void>((resolve) => {
    blurred = resolve;
  });
  await page.route("**/dashboard/profile.data*", async (route) => {
    if (route.request().method() === "POST") {
      posts.push(route.request().postData() ?? "");
      await afterBlur;
    }
    await route.continue();
  });
  await dialog.getByLabel("Company").fill("NASA Langley");
  await page.clock.runFor(PROFILE.autoSaveMs);
  await expect(dialog.getByText("Saving...")).toBeVisible();
  await expect.poll(() => posts.length, { message: "the auto-save reached the network" }).toBe(1);
  await dialog.getByLabel("Company").press("Tab");
  await settle();
  blurred();
  await expect(dialog.getByText("Changes auto-saved!")).toBeVisible();
  await page.waitForLoadState("networkidle");
  await settle();
  await expect(dialog).toBeVisible();
  expect(new URL(page.url()).searchParams.get("edit")).toBe("1");
  expect(posts).toHaveLength(1);
  expect(new URLSearchParams(posts[0]).get("intent")).toBe("autosave");
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the Edit Profile form saves with a normal submit and shows the spec's errors", async ({ page }) => {
    await page.goto("/auth?mode=signin");
    await page.getByLabel("Email").fill("demo@modelify.dev");
    await page.getByLabel("Password").fill("Modelify-Demo-2026");
    await page.getByRole("button", { name: "Sign In", exact: true }).click();
    await page.waitForURL((url) => url.pathname === "/dashboard");

    await page.goto("/dashboard/profile");
    await page.getByRole("link", { name: "Edit Profile", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: "Edit Profile" });
    await dialog.getByLabel("First name").fill("D");
    await dialog.getByRole("button", { name: "Save" }).click();
    await expect(dialog.getByText("First name must be at least 2 characters long.")).toBeVisible();

    await dialog.getByLabel("First name").fill("Demo");
    await dialog.getByLabel("Company").fill("Modelify Labs");
    await dialog.getByRole("button", { name: "Save" }).click();
    await expect(page.getByText("Profile saved successfully!")).toBeVisible();
    await expect(page.getByText("Modelify Labs")).toBeVisible();
  });
});

test("changing the e-mail asks for the current password, and the old inbox can cancel the change", async ({ page, newClient }) => {
  test.setTimeout(90_000);
  const email = uniqueEmail("mover");
  const next = uniqueEmail("moved");
  await signUpAndConfirm(page, email);
  await page.goto("/dashboard/profile?edit=1");
  await hydrated(page);
  const dialog = page.getByRole("dialog", { name: "Edit Profile" });
  // The password field appears only once the address differs from the saved one.
  await expect(dialog.getByLabel("Current password")).toHaveCount(0);
  await dialog.getByLabel("Email").fill(next);
  await expect(dialog.getByLabel("Current password")).toBeVisible();
  await dialog.getByRole("button", { name: "Save", exact: true }).click();
  await expect(dialog.getByText("Enter your current password to change your e-mail address.")).toBeVisible();

  await dialog.getByLabel("Current password").fill("Sunny-Day-42");
  await dialog.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByText(`We sent a confirmation link to ${next}`)).toBeVisible();

  // The current inbox's notice cancels it from any browser, and signs out everywhere.
  const notice = await waitForMail(email, /A change of your Modelify e-mail address was requested/);
  const reader = await newClient();
  await reader.goto(notice.links[0]!);
  await expect(reader.getByText(next)).toBeVisible();
  await reader.getByRole("button", { name: "Cancel the Change and Sign Out Everywhere" }).click();
  await expect(reader.getByText("The change of your e-mail address was cancelled")).toBeVisible();
  await page.goto("/dashboard/profile");
  await page.waitForURL((url) => url.pathname === "/auth");
});
