// Issue 50: a team's life in the browser, with and without JavaScript. The owner creates a team and
// invites an address; the invited person opens the mail's link signed out, signs in with that
// address and accepts; the owner makes them admin and member again (the members page answers them
// 404 as a member); the owner cannot leave while others are members; the member leaves; invited
// again, they are removed by the owner; a revoked invitation's link no longer works.
import type { Browser, Page } from "@playwright/test";
import { clientContextOptions, HYDRATION_PROBE, hydrated, signUpAndConfirm, uniqueEmail, waitForMail } from "./browser.ts";
import { expect, test } from "./fixtures.ts";

const PASSWORD = "Sunny-Day-42";
const INVITATION_SUBJECT = /invited to join a team/;

/** The same person (page's cookies) in a browser context of their own, with JavaScript as asked. */
async function asBrowser(browser: Browser, page: Page, javaScriptEnabled: boolean): Promise<Page> {
  const context = await browser.newContext({ ...clientContextOptions(), javaScriptEnabled, storageState: await page.context().storageState() });
  if (javaScriptEnabled) await context.addInitScript(HYDRATION_PROBE);
  return context.newPage();
}

/** Opens a page and, with JavaScript on, waits for its hydration (a click before it is a plain post). */
async function open(page: Page, path: string, javaScriptEnabled: boolean) {
  const response = await page.goto(path);
  if (javaScriptEnabled) await hydrated(page);
  return response;
}

async function invite(owner: Page, email: string, role: "Member" | "Admin") {
  const sentAfter = Date.now();
  await owner.getByLabel("E-mail address").fill(email);
  await owner.getByLabel("Role").selectOption({ label: role });
  await owner.getByRole("button", { name: "Send Invitation" }).click();
  await expect(owner.getByText("The invitation is sent.")).toBeVisible();
  await expect(owner.getByRole("list", { name: "Open invitations" })).toContainText(email);
  return waitForMail(email, INVITATION_SUBJECT, sentAfter);
}

const memberRow = (owner: Page, email: string) => owner.getByTestId("member").filter({ hasText: email });

for (const javaScriptEnabled of [true, false]) {
  test(`a team is created, an address invited, the invitation accepted, roles changed, a member leaves and is removed (JavaScript ${javaScriptEnabled ? "on" : "off"})`, async ({
    page,
    browser,
    newClient,
  }) => {
    test.setTimeout(120_000);
    const ownerEmail = uniqueEmail("team-owner");
    await signUpAndConfirm(page, ownerEmail, PASSWORD);
    const owner = await asBrowser(browser, page, javaScriptEnabled);
    const teamName = `Lab ${Date.now().toString(36)}`;

    // The usage tab's user view, where the spec promised teams "coming soon", leads to them.
    await open(owner, "/dashboard/usage?view=user", javaScriptEnabled);
    await expect(owner.getByText(/coming soon/)).toHaveCount(0);
    await owner
      .getByText(/^Team Management:/)
      .getByRole("link", { name: "Teams" })
      .click();
    await owner.waitForURL((u) => u.pathname === "/dashboard/teams");
    await expect(owner.getByText("You are not in any team yet.")).toBeVisible();
    await owner.getByLabel("Team name").fill(teamName);
    await owner.getByRole("button", { name: "Create Team" }).click();
    await owner.waitForURL(/\/dashboard\/teams\/[a-z0-9-]+$/);
    const teamPath = new URL(owner.url()).pathname;
    await expect(owner.getByRole("heading", { level: 1, name: teamName })).toBeVisible();
    await expect(owner.getByTestId("seats-used")).toHaveText(/^1 of \d+$/);

    // The invitation: the mail names no team (fixed words), its link asks a signed-out visitor to sign in.
    await open(owner, `${teamPath}/members`, javaScriptEnabled);
    const memberEmail = uniqueEmail("team-member");
    const mail = await invite(owner, memberEmail, "Member");
    expect(mail.text).not.toContain(teamName);
    const link = mail.links[0]!;

    const signingUp = await newClient();
    await signUpAndConfirm(signingUp, memberEmail, PASSWORD);
    await signingUp.context().clearCookies();
    const member = await asBrowser(browser, signingUp, javaScriptEnabled);
    await open(member, link, javaScriptEnabled);
    await expect(member.getByRole("heading", { name: "Team invitation" })).toBeVisible();
    await expect(member.getByText(teamName)).toHaveCount(0);
    await member.getByRole("main").getByRole("link", { name: "Sign In" }).click();
    await member.getByLabel("Email").fill(memberEmail);
    await member.getByLabel("Password").fill(PASSWORD);
    await member.getByRole("button", { name: "Sign In", exact: true }).click();
    await member.waitForURL((url) => url.pathname === new URL(link).pathname);
    await expect(member.getByTestId("invitation-team")).toHaveText(teamName);
    if (javaScriptEnabled) await hydrated(member);
    await member.getByRole("button", { name: "Accept Invitation" }).click();
    await member.waitForURL((url) => url.pathname === teamPath);
    await expect(member.getByText("Your role: Member")).toBeVisible();
    // A member sees the overview and usage links, not the managers' pages, which answer 404.
    await expect(member.getByTestId("team-nav").getByRole("link")).toHaveText(["Overview", "Usage"]);
    expect((await member.goto(`${teamPath}/members`))?.status()).toBe(404);
    // The link worked once.
    await open(member, link, javaScriptEnabled);
    await expect(member.getByText("This invitation is no longer valid")).toBeVisible();

    // Roles: admin, then member again.
    await open(owner, `${teamPath}/members`, javaScriptEnabled);
    await expect(owner.getByTestId("member")).toHaveCount(2);
    await memberRow(owner, memberEmail)
      .getByRole("button", { name: /^Make Admin: / })
      .click();
    await expect(owner.getByText("The role is changed.")).toBeVisible();
    await expect(memberRow(owner, memberEmail)).toContainText("Admin");
    expect((await open(member, `${teamPath}/members`, javaScriptEnabled))?.status()).toBe(200);
    await expect(member.getByRole("heading", { level: 1 })).toHaveText(`${teamName}: Members`);
    // An admin is offered nothing against the owner.
    await expect(member.getByTestId("member").filter({ hasText: ownerEmail }).getByRole("button")).toHaveCount(0);
    if (javaScriptEnabled) await hydrated(owner);
    await memberRow(owner, memberEmail)
      .getByRole("button", { name: /^Make Member: / })
      .click();
    // The notice is the same as the first change's: the row's role says this one has landed.
    await expect(memberRow(owner, memberEmail)).toContainText(`${memberEmail} · Member`);
    expect((await member.goto(`${teamPath}/members`))?.status()).toBe(404);

    // The owner cannot leave while the team has another member.
    await open(owner, teamPath, javaScriptEnabled);
    await owner.getByRole("button", { name: "Leave Team" }).click();
    await expect(owner.getByText("The owner cannot leave while the team has other members")).toBeVisible();

    // The member leaves: the team's pages answer them 404 at once.
    await open(member, teamPath, javaScriptEnabled);
    await member.getByRole("button", { name: "Leave Team" }).click();
    await member.waitForURL((url) => url.pathname === "/dashboard/teams");
    await expect(member.getByText("You are not in any team yet.")).toBeVisible();
    expect((await member.goto(teamPath))?.status()).toBe(404);

    // Invited again and removed by the owner.
    await open(owner, `${teamPath}/members`, javaScriptEnabled);
    await expect(owner.getByTestId("member")).toHaveCount(1);
    const again = await invite(owner, memberEmail, "Member");
    await open(member, again.links[0]!, javaScriptEnabled);
    await member.getByRole("button", { name: "Accept Invitation" }).click();
    await member.waitForURL((url) => url.pathname === teamPath);
    await open(owner, `${teamPath}/members`, javaScriptEnabled);
    await memberRow(owner, memberEmail)
      .getByRole("button", { name: /^Remove / })
      .click();
    await expect(owner.getByText("The member is removed")).toBeVisible();
    await expect(owner.getByTestId("member")).toHaveCount(1);
    expect((await member.goto(teamPath))?.status()).toBe(404);

    // A revoked invitation's link no longer works.
    const revokedEmail = uniqueEmail("team-revoked");
    const revoked = await invite(owner, revokedEmail, "Admin");
    await owner.getByRole("button", { name: `Revoke the invitation to ${revokedEmail}` }).click();
    await expect(owner.getByText("The invitation is revoked")).toBeVisible();
    await expect(owner.getByText("No invitation is waiting for an answer.")).toBeVisible();
    const stranger = await newClient();
    await signUpAndConfirm(stranger, revokedEmail, PASSWORD);
    await stranger.goto(revoked.links[0]!);
    await expect(stranger.getByText("This invitation is no longer valid")).toBeVisible();

    for (const p of [owner, member]) await p.context().close();
  });
}

test("an invitation opened while signed in with another address says so and offers no Accept", async ({ page, newClient }) => {
  const ownerEmail = uniqueEmail("team-owner");
  await signUpAndConfirm(page, ownerEmail, PASSWORD);
  await open(page, "/dashboard/teams", true);
  await page.getByLabel("Team name").fill("Wrong Address Team");
  await page.getByRole("button", { name: "Create Team" }).click();
  await page.waitForURL(/\/dashboard\/teams\/[a-z0-9-]+$/);
  await open(page, `${new URL(page.url()).pathname}/members`, true);
  const mail = await invite(page, uniqueEmail("team-invited"), "Member");
  const other = await newClient();
  await signUpAndConfirm(other, uniqueEmail("team-other"), PASSWORD);
  await other.goto(mail.links[0]!);
  await expect(other.getByTestId("wrong-address")).toContainText("This invitation is for another e-mail address.");
  await expect(other.getByRole("button", { name: "Accept Invitation" })).toHaveCount(0);
});
