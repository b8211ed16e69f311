// Issue 45, F1: a password reset must not open an account without its second factor. A mailbox
// alone sets the password and ends every session, but a two-factor account's browser then takes
// the sign-in's own second step (a code or a recovery code) before any session exists. After the
// reset, the first page lists the account's ways in (passkeys, two-factor, sessions and devices,
// and what the reset ended), each removable in one click.
import { env } from "cloudflare:test";
import { generateTOTP } from "@epic-web/totp";
import { and, eq, isNull } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { completeSignIn } from "~/lib/auth/accounts.server";
import { AFTER_RESET } from "~/lib/auth/modes";
import { AUTH_MESSAGES } from "~/lib/auth/messages";
import { confirmSetup, startSetup } from "~/lib/auth/two-factor-setup.server";
import { TOTP_OPTIONS } from "~/lib/auth/two-factor.server";
import { schema } from "~/lib/db.server";
import { Browser, createConfirmedUser, db, keySettings, linkPath, ORIGIN, recentProofOf, uniqueIp, visibleText, waitForMail } from "./helpers";
import { SoftPasskey } from "./passkey-authenticator";

const NEW_PASSWORD = "Fresh-Start-2026";
const deps = () => ({ db, queue: env.EVENTS, env: keySettings, ip: uniqueIp(), origin: ORIGIN, ledgers: env.USAGE_LEDGER, userAgent: null });
const totp = async (secret: string) => (await generateTOTP({ secret, ...TOTP_OPTIONS })).otp;

async function twoFactorAccount() {
  const account = await createConfirmedUser();
  const setup = await startSetup(deps(), account, await recentProofOf(account.id));
  const confirmed = await confirmSetup(deps(), account, await totp(setup!.secret), await recentProofOf(account.id));
  if (!confirmed.ok) throw new Error("setup refused");
  await db.update(schema.twoFactor).set({ lastStep: 0 }).where(eq(schema.twoFactor.userId, account.id));
  return { ...account, secret: setup!.secret, recoveryCodes: confirmed.recoveryCodes };
}

/** The mailbox's half of a reset: asks for the link, opens it in a fresh browser, and posts a new password. */
async function resetFromMailbox(email: string) {
  const mailbox = new Browser();
  const asked = Date.now();
  expect((await mailbox.post("/auth?mode=forgot-password", { intent: "forgot-password", email })).status).toBe(200);
  const mail = await waitForMail(email, /Reset your Modelify password/, { after: asked });
  expect((await mailbox.get(linkPath(mail.links[0]!))).headers.get("Location")).toBe("/auth/reset-password");
  const reset = await mailbox.post("/auth/reset-password", { password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD });
  return { mailbox, reset };
}

const liveSessions = (userId: string) =>
  db
    .select()
    .from(schema.sessions)
    .where(and(eq(schema.sessions.userId, userId), isNull(schema.sessions.revokedAt)));

describe("a reset of a two-factor account", () => {
  it("sets the password and ends every session, but opens none: the browser goes to the code step", async () => {
    const account = await twoFactorAccount();
    const { mailbox, reset } = await resetFromMailbox(account.email);
    expect(reset.status).toBe(303);
    expect(reset.headers.get("Location")).toBe("/auth/two-factor?from=reset");
    expect(mailbox.cookies.get("mfy_access")).toBeUndefined();
    expect(mailbox.cookies.get("mfy_refresh")).toBeUndefined();
    expect(mailbox.cookies.get("mfy_2fa_pending")).toBeTruthy();
    expect(await liveSessions(account.id)).toEqual([]);
    // The mailbox alone reaches nothing signed in.
    expect((await mailbox.get("/dashboard")).headers.get("Location")).toBe("/auth");
    expect((await mailbox.get("/dashboard/profile/passkeys", { method: "GET" })).status).toBe(405);
    // The new password is set, and the old session is over.
    expect((await account.browser.get("/dashboard")).headers.get("Location")).toBe("/auth");

    const step = await mailbox.get("/auth/two-factor?from=reset");
    expect(step.status).toBe(200);
    expect(visibleText(await step.text())).toContain(AUTH_MESSAGES.resetTwoFactorNext);
    const wrong = await mailbox.post("/auth/two-factor?from=reset", { code: "000000-nope" });
    expect(wrong.status).toBe(401);
    expect(await liveSessions(account.id)).toEqual([]);

    const right = await mailbox.post("/auth/two-factor?from=reset", { code: await totp(account.secret) });
    expect(right.status).toBe(302);
    expect(right.headers.get("Location")).toBe(AFTER_RESET);
    expect(await liveSessions(account.id)).toHaveLength(1);
    expect((await mailbox.get(AFTER_RESET)).status).toBe(200);
  });

  it("takes a recovery code on the second step, spent like any other", async () => {
    const account = await twoFactorAccount();
    const { mailbox } = await resetFromMailbox(account.email);
    const code = account.recoveryCodes[0]!;
    expect((await mailbox.post("/auth/two-factor?from=reset", { code })).headers.get("Location")).toBe(AFTER_RESET);
    const codes = await db.select().from(schema.twoFactorRecoveryCodes).where(eq(schema.twoFactorRecoveryCodes.userId, account.id));
    expect(codes.filter((row) => row.usedAt !== null)).toHaveLength(1);
    await waitForMail(account.email, /A recovery code of your Modelify account was used/);
  });

  it("signs the new password in only with its code afterwards, too", async () => {
    const account = await twoFactorAccount();
    await resetFromMailbox(account.email);
    const browser = new Browser();
    const signIn = await browser.post("/auth?mode=signin", { intent: "signin", email: account.email, password: NEW_PASSWORD });
    expect(signIn.status).toBe(302);
    expect(signIn.headers.get("Location")).toBe("/auth/two-factor?mode=signin");
    expect(browser.cookies.get("mfy_access")).toBeUndefined();
  });

  it("no path can open a session without the second factor: completeSignIn refuses", async () => {
    const account = await twoFactorAccount();
    const user = (await db.query.users.findFirst({ where: eq(schema.users.id, account.id) }))!;
    const before = (await liveSessions(account.id)).length;
    await expect(completeSignIn(deps(), user, "web", { shown: "password", secondFactor: false })).rejects.toThrow(/second factor/);
    await expect(completeSignIn(deps(), user, "web", { shown: "signup-link" })).rejects.toThrow(/second factor/);
    expect(await liveSessions(account.id)).toHaveLength(before);
  });
});

describe("a reset of an account without two-factor", () => {
  it("signs the browser in and sends it to the access review", async () => {
    const account = await createConfirmedUser();
    const { mailbox, reset } = await resetFromMailbox(account.email);
    expect(reset.status).toBe(200);
    expect(mailbox.cookies.get("mfy_access")).toBeTruthy();
    expect(visibleText(await reset.text())).toContain("check your account's passkeys and devices");
  });
});

describe("the first page after a reset", () => {
  it("lists the passkeys that outlived it, what it signed out, and removes a passkey in one click", async () => {
    const account = await createConfirmedUser();
    // An intruder's passkey, added while they held a proven session, and their desktop-less browser.
    const passkey = new SoftPasskey();
    const options = await account.browser.post("/dashboard/profile/passkeys", { intent: "options" }, { Accept: "application/json" });
    const { options: json } = (await options.json()) as { options: Parameters<SoftPasskey["register"]>[0] };
    const registered = await account.browser.post(
      "/dashboard/profile/passkeys",
      { intent: "register", name: "Not mine", response: JSON.stringify(await passkey.register(json)) },
      { Accept: "application/json" },
    );
    expect(registered.status).toBe(200);

    const { mailbox } = await resetFromMailbox(account.email);
    const page = await mailbox.get(AFTER_RESET);
    expect(page.status).toBe(200);
    const text = visibleText(await page.text());
    expect(text).toContain("Your password is changed, and every other session and device was signed out.");
    expect(text).toContain("Your 1 passkey still signs in");
    expect(text).toContain("Not mine");
    expect(text).toContain("Signed out by your password reset");
    // One click removes it (the reset's session is a recent proof), and comes back here.
    const removed = await mailbox.post("/dashboard/profile/passkeys", { intent: "remove", id: passkey.id, next: "/dashboard/profile/access" });
    expect(removed.status).toBe(303);
    expect(removed.headers.get("Location")).toBe("/dashboard/profile/access?passkeys=removed#passkeys-title");
    expect(await db.select().from(schema.passkeys).where(eq(schema.passkeys.userId, account.id))).toEqual([]);
    await waitForMail(account.email, /A passkey was removed/);
  });

  it("is the owner's own: signed out, it sends to sign-in", async () => {
    const page = await new Browser().get("/dashboard/profile/access");
    expect(page.headers.get("Location")).toBe("/auth");
  });
});

describe("where sessions come from", () => {
  const sources = import.meta.glob("/app/**/*.{ts,tsx}", { query: "?raw", import: "default", eager: true }) as Record<string, string>;

  it("only completeSignIn (which checks every factor) and a device key approved with a recent proof create one", () => {
    const creators = Object.entries(sources)
      .filter(([file, source]) => !file.endsWith(".test.ts") && /\bcreateSession\(/.test(source) && !file.endsWith("/session.server.ts"))
      .map(([file]) => file)
      .sort();
    expect(creators).toEqual(["/app/lib/auth/accounts.server.ts", "/app/lib/auth/device-authorization.server.ts"]);
    // In accounts.server.ts, only completeSignIn calls it.
    const accounts = sources["/app/lib/auth/accounts.server.ts"]!;
    expect(accounts.match(/\bcreateSession\(/g)).toHaveLength(1);
    const owner = accounts.slice(accounts.indexOf("export async function completeSignIn"));
    expect(owner.slice(0, owner.indexOf("\n}\n"))).toMatch(/\bcreateSession\(/);
  });
});
