// Screenshots of issue 50's team pages as the demo account (the demo team's owner, scripts/seed.mjs)
// sees them, an open invitation as its invited address sees it (signed out, then signed in), and the
// device sign-in's choice between Personal and the team. Part of `npm run screenshots`.
import type { BrowserContext, Page } from "playwright-core";
import { signIn, signUpAndConfirm, uniqueEmail, waitForMail } from "../tests/e2e/browser.ts";
import { requestDeviceCode, thisDevice } from "./desktop-demo.ts";

type Viewports = ReadonlyArray<readonly [number, number, string]>;
type Launch = (viewport: { width: number; height: number }) => Promise<BrowserContext>;

const TEAM = "/dashboard/teams/demo-team";
const PAGES = [
  ["teams", "/dashboard/teams"],
  ["team-overview", TEAM],
  ["team-members", `${TEAM}/members`],
  ["team-activity", `${TEAM}/activity`],
  ["team-budget", `${TEAM}/budget`],
  ["team-usage", `${TEAM}/usage`],
  ["team-billing", `${TEAM}/billing`],
] as const;

async function shoot(page: Page, name: string, label: string) {
  await page.waitForLoadState("networkidle");
  await page.screenshot({ path: `screenshots/${name}-${label}.png`, fullPage: true });
}

/** One invitation from the demo team to a new address, returning its link (the invited person signs up at 1280 px). */
async function openInvitation(launch: Launch): Promise<{ link: string; email: string }> {
  const context = await launch({ width: 1280, height: 900 });
  const page = await context.newPage();
  await signIn(page, "demo@modelify.dev", "Modelify-Demo-2026");
  await page.waitForURL((u) => u.pathname === "/dashboard");
  const email = uniqueEmail("invited");
  const after = Date.now();
  await page.goto(`${TEAM}/members`);
  await page.getByLabel("E-mail address").fill(email);
  await page.getByRole("button", { name: "Send Invitation" }).click();
  await page.getByText("The invitation is sent.").waitFor();
  await context.close();
  const mail = await waitForMail(email, /invited to join a team/, after);
  const invited = await launch({ width: 1280, height: 900 });
  await signUpAndConfirm(await invited.newPage(), email);
  await invited.close();
  return { link: mail.links[0]!, email };
}

export async function shootTeamPages(launch: Launch, viewports: Viewports) {
  const invitation = await openInvitation(launch);
  for (const [width, height, label] of viewports) {
    const context = await launch({ width, height });
    const page = await context.newPage();
    await page.goto(invitation.link);
    await shoot(page, "team-invitation-signed-out", label);
    // The page's own Sign In comes back to the invitation.
    await page.getByRole("main").getByRole("link", { name: "Sign In" }).click();
    await page.getByLabel("Email").fill(invitation.email);
    await page.getByLabel("Password").fill("Sunny-Day-42");
    await page.getByRole("button", { name: "Sign In", exact: true }).click();
    await page.waitForURL((u) => u.pathname.startsWith("/teams/invitations/"));
    await shoot(page, "team-invitation", label);
    await context.close();

    const demo = await launch({ width, height });
    const demoPage = await demo.newPage();
    await signIn(demoPage, "demo@modelify.dev", "Modelify-Demo-2026");
    await demoPage.waitForURL((u) => u.pathname === "/dashboard");
    for (const [name, path] of PAGES) {
      await demoPage.goto(path);
      await shoot(demoPage, name, label);
    }
    const grant = await requestDeviceCode(new URL(demoPage.url()).origin, thisDevice({ name: `Team Laptop (${label})` }));
    await demoPage.goto(grant.verification_uri_complete);
    await demoPage.getByRole("group", { name: "Use this device for" }).waitFor();
    await shoot(demoPage, "device-team-choice", label);
    await demo.close();
  }
}
