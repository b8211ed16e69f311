// Issue 46, item 6: changing the password while signed in. The current password (on the sign-in
// lockout), a code where two-factor is on and the session has no recent proof, a new password
// under sign-up's rules; it ends every other session and device key, keeps the one that changed
// it, and mails the owner. Password managers find it at /.well-known/change-password.
import { env } from "cloudflare:test";
import { generateTOTP } from "@epic-web/totp";
import { and, eq, isNull } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { AUTH_MESSAGES as M } from "~/lib/auth/messages";
import { confirmSetup, startSetup } from "~/lib/auth/two-factor-setup.server";
import { TOTP_OPTIONS } from "~/lib/auth/two-factor.server";
import { LOCKOUT, RECENT_PROOF } from "~/lib/constants";
import { schema } from "~/lib/db.server";
import {
  Browser,
  createConfirmedUser,
  db,
  keySettings,
  ORIGIN,
  recentProofOf,
  sessionIdOf,
  STRONG_PASSWORD,
  uniqueIp,
  visibleText,
  waitForMail,
} from "./helpers";

const PAGE = "/dashboard/profile/password";
const NEW_PASSWORD = "Quiet-River-2031";

const change = (browser: Browser, fields: Record<string, string>) =>
  browser.post(PAGE, { currentPassword: STRONG_PASSWORD, password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD, ...fields });

async function signInAgain(email: string, password: string) {
  const browser = new Browser();
  const answer = await browser.post("/auth?mode=signin", { intent: "signin", email, password });
  return { browser, status: answer.status };
}

const liveSessions = (userId: string) =>
  db
    .select({ id: schema.sessions.id })
    .from(schema.sessions)
    .where(and(eq(schema.sessions.userId, userId), isNull(schema.sessions.revokedAt)));

describe("changing the password while signed in", () => {
  it("sets the new password, ends every other session but keeps this one, and mails the owner", async () => {
    const { browser, email, id } = await createConfirmedUser();
    const other = await signInAgain(email, STRONG_PASSWORD);
    expect(other.status).toBe(200);
    const page = await browser.get(PAGE);
    expect(page.status).toBe(200);
    expect(visibleText(await page.text())).toContain("Change your password");

    const started = Date.now();
    const changed = await change(browser, {});
    expect(changed.status).toBe(303);
    expect(changed.headers.get("Location")).toBe("/dashboard/profile?password=changed#password-title");
    expect(await liveSessions(id)).toEqual([{ id: sessionIdOf(browser) }]);
    expect((await other.browser.get("/dashboard")).headers.get("Location")).toBe("/auth");
    expect((await browser.get("/dashboard/profile?password=changed")).status).toBe(200);

    expect((await signInAgain(email, STRONG_PASSWORD)).status).toBe(401);
    expect((await signInAgain(email, NEW_PASSWORD)).status).toBe(200);
    const mail = await waitForMail(email, /Your Modelify password was changed/, { after: started });
    expect(mail.links).toEqual([`${ORIGIN}/auth?mode=forgot-password`]);
  });

  it("refuses a wrong current password beside its field and changes nothing; a burst counts on the sign-in lockout", async () => {
    const { browser, email } = await createConfirmedUser();
    const wrong = await change(browser, { currentPassword: "Not-The-Password-1" });
    expect(wrong.status).toBe(401);
    expect(visibleText(await wrong.text())).toContain(M.proofPasswordWrong);
    expect((await signInAgain(email, STRONG_PASSWORD)).status).toBe(200);

    const burst = await Promise.all(Array.from({ length: 12 }, () => change(browser, { currentPassword: "Not-The-Password-1" })));
    const statuses = burst.map((r) => r.status);
    // One wrong password above, so the allowance left is one less.
    expect(statuses.filter((s) => s === 401)).toHaveLength(LOCKOUT.signIn.maxFailures);
    expect(statuses.filter((s) => s === 429)).toHaveLength(12 - LOCKOUT.signIn.maxFailures);
    expect((await change(browser, {})).status).toBe(429);
    expect((await signInAgain(email, NEW_PASSWORD)).status).not.toBe(200);
  });

  it("refuses a weak, mismatched or unchanged new password beside its field, without checking the current one", async () => {
    const { browser, email } = await createConfirmedUser();
    const cases: Array<[Record<string, string>, string]> = [
      [{ password: "short", confirmPassword: "short" }, M.passwordTooShort],
      [{ password: NEW_PASSWORD, confirmPassword: `${NEW_PASSWORD}x` }, M.passwordsDoNotMatch],
      [{ password: STRONG_PASSWORD, confirmPassword: STRONG_PASSWORD }, M.newPasswordSameAsCurrent],
      [{ currentPassword: "" }, M.currentPasswordRequired],
    ];
    for (const [fields, message] of cases) {
      const answer = await change(browser, fields);
      expect(answer.status, message).toBe(400);
      expect(visibleText(await answer.text()), message).toContain(message);
    }
    expect((await signInAgain(email, STRONG_PASSWORD)).status).toBe(200);
  });

  it("asks a two-factor account for a code when the session has no recent proof", async () => {
    const account = await createConfirmedUser();
    const deps = { db, queue: env.EVENTS, env: keySettings, ip: uniqueIp(), origin: ORIGIN };
    const setup = await startSetup(deps, account, await recentProofOf(account.id));
    const totp = async () => (await generateTOTP({ secret: setup!.secret, ...TOTP_OPTIONS })).otp;
    expect((await confirmSetup(deps, account, await totp(), await recentProofOf(account.id))).ok).toBe(true);
    await db.update(schema.twoFactor).set({ lastStep: 0 }).where(eq(schema.twoFactor.userId, account.id));
    await db
      .update(schema.sessions)
      .set({ provenAt: Date.now() - RECENT_PROOF.windowMs - 1 })
      .where(eq(schema.sessions.id, sessionIdOf(account.browser)));
    expect(await (await account.browser.get(PAGE)).text()).toContain('name="code"');
    const withoutCode = await change(account.browser, {});
    expect(withoutCode.status).toBe(400);
    expect(visibleText(await withoutCode.text())).toContain(M.proofCodeRequired);
    const wrongCode = await change(account.browser, { code: "000000-nope" });
    expect(wrongCode.status).toBe(401);
    expect((await change(account.browser, { code: await totp() })).status).toBe(303);
  });

  it("is where /.well-known/change-password leads, for a signed-in user and (through sign-in) for anyone", async () => {
    const { browser } = await createConfirmedUser();
    const known = await browser.get("/.well-known/change-password");
    expect(known.status).toBe(302);
    expect(known.headers.get("Location")).toBe(PAGE);
    expect((await new Browser().get(PAGE)).headers.get("Location")).toBe("/auth");
  });

  it("refuses a change posted from another site", async () => {
    const { browser, email } = await createConfirmedUser();
    const foreign = await browser.post(
      PAGE,
      { currentPassword: STRONG_PASSWORD, password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD },
      { Origin: "https://evil.example" },
    );
    expect([400, 403]).toContain(foreign.status);
    expect((await signInAgain(email, STRONG_PASSWORD)).status).toBe(200);
  });
});
