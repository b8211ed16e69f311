// Issue 50 (ADR 0038): the device sign-in asks which context the key reports under. A member of a
// team sees "Use this device for: Personal / <team>" on /device (Personal checked), chooses the
// team, and the app's token answer names it; the team's usage page then counts the device's report.
import { randomUUID } from "node:crypto";
import { pollForTokens, requestDeviceCode, thisDevice } from "../../scripts/desktop-demo.ts";
import { signUpAndConfirm, uniqueEmail } from "./browser.ts";
import { expect, test } from "./fixtures.ts";
import { queryLocalD1, writeLocalD1 } from "./local-d1.ts";

test("a member signs a device in for their team on /device; the token answer names the team", async ({ newClient, baseURL }) => {
  test.setTimeout(60_000);
  const page = await newClient();
  const email = uniqueEmail("device-team");
  await signUpAndConfirm(page, email, "Sunny-Day-42");
  await page.waitForURL((url) => url.pathname.startsWith("/dashboard") || url.pathname === "/pricing");
  const [user] = queryLocalD1<{ id: string }>("SELECT id FROM users WHERE email = ?", email);
  const teamId = randomUUID();
  const slug = `e2e-${teamId.slice(0, 8)}`;
  writeLocalD1("INSERT INTO teams (id, slug, name, owner_id, seats) VALUES (?, ?, ?, ?, 3)", teamId, slug, `Team ${slug}`, user!.id);
  writeLocalD1("INSERT INTO team_members (team_id, user_id, role, joined_at) VALUES (?, ?, 'owner', ?)", teamId, user!.id, Date.now());

  const grant = await requestDeviceCode(baseURL!, thisDevice({ name: "E2E Team Laptop" }));
  await page.goto(grant.verification_uri_complete);
  const context = page.getByRole("group", { name: "Use this device for" });
  await expect(context.getByRole("radio", { name: "Personal" })).toBeChecked();
  await context.getByRole("radio", { name: `Team ${slug}` }).check();
  await page.getByRole("button", { name: "Approve" }).click();
  await expect(page.getByText("Device approved.")).toBeVisible();

  // Approved already: the first answer is the tokens, so nothing to wait between asks.
  const tokens = await pollForTokens(baseURL!, grant, { sleep: () => Promise.resolve() });
  expect(tokens.team).toEqual({ slug, name: `Team ${slug}` });
  expect(queryLocalD1<{ team_id: string }>("SELECT team_id FROM sessions WHERE user_id = ? AND client = 'desktop'", user!.id)).toEqual([{ team_id: teamId }]);

  await page.goto(`/dashboard/teams/${slug}/usage`);
  await expect(page.getByRole("heading", { name: `Team ${slug}: Usage` })).toBeVisible();
});
