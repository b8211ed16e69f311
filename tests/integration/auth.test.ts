import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { AUTH_MESSAGES as M } from "~/lib/auth/messages";
import { PASSWORD } from "~/lib/constants";
import { schema } from "~/lib/db.server";
import { verifySecret } from "~/lib/auth/password";
import { Browser, createConfirmedUser, db, linkPath, signUpFields, STRONG_PASSWORD, uniqueEmail, waitForMail } from "./helpers";

function escapeHtml(text: string) {
  return text.replace(/&/g, "&amp;").replace(/'/g, "&#x27;").replace(/"/g, "&quot;");
}

const bodies = new WeakMap<Response, Promise<string>>();
async function expectText(response: Response, text: string) {
  if (!bodies.has(response)) bodies.set(response, response.text());
  const html = await bodies.get(response)!;
  expect(html.includes(text) || html.includes(escapeHtml(text)), `expected page to contain: ${text}`).toBe(true);
}

describe("sign-up", () => {
  it("creates an unconfirmed account with hashed secrets and e-mails a confirmation link", async () => {
    const email = uniqueEmail("signup");
    const browser = new Browser();
    const response = await browser.post("/auth?mode=signup", signUpFields(email));
    expect(response.status).toBe(200);
    await expectText(response, M.signUpSuccess);
    await expectText(response, "Continue to Home");

    // The consumer creates the account (the request only enqueues): it exists once the mail is out.
    const mail = await waitForMail(email, /Confirm your Modelify account/);
    const user = await db.query.users.findFirst({ where: eq(schema.users.email, email) });
    expect(user?.emailConfirmedAt).toBeNull();
    expect(user?.passwordHash).toMatch(/^pbkdf2_sha256\$100000\$/);
    expect(await verifySecret(STRONG_PASSWORD, user!.passwordHash)).toBe(true);
    expect(JSON.stringify(user?.metadata)).not.toContain("Rex the dog");
    expect(await verifySecret("rex the dog", user!.metadata.security_answer_hash!)).toBe(true);
    expect(user?.metadata.phone_number).toBe("+15551234567");

    expect(mail.links[0]).toMatch(/^http:\/\/localhost\/auth\/callback\?type=signup&token=[\w-]{43}$/);
    const stored = await db.select().from(schema.oneTimeTokens).where(eq(schema.oneTimeTokens.userId, user!.id));
    const token = new URL(mail.links[0]!).searchParams.get("token")!;
    expect(stored.map((t) => t.tokenHash)).not.toContain(token);
  });

  it("answers an existing address exactly like a new one and tells its owner by e-mail", async () => {
    const { email } = await createConfirmedUser();
    const response = await new Browser().post("/auth?mode=signup", signUpFields(email, { firstName: "Mallory" }));
    expect(response.status).toBe(200);
    await expectText(response, M.signUpSuccess);
    await waitForMail(email, /You already have a Modelify account/);
    const users = await db.select().from(schema.users).where(eq(schema.users.email, email));
    expect(users).toHaveLength(1);
  });

  it.each([
    ["firstName", "", M.firstNameRequired],
    ["lastName", "", M.lastNameRequired],
    ["email", "not-an-email", M.invalidEmail],
    ["phoneNumber", " 12345678 ", M.invalidPhone],
    ["securityQuestion", "", M.securityQuestionRequired],
    ["securityAnswer", "ab", M.securityAnswerTooShort],
    ["password", "short", M.passwordTooShort],
    ["initial", "ABCDEFGHIJK", M.middleInitialTooLong],
    ["firstName", "\u0000", M.invalidCharacters],
    ["lastName", " \u0000 ", M.invalidCharacters],
    ["securityAnswer", "ab\u0007c", M.invalidCharacters],
  ])("refuses %s=%j with the spec's message", async (field, value, message) => {
    const fields = signUpFields(uniqueEmail("invalid"), { [field]: value });
    if (field === "password") fields.confirmPassword = value;
    const response = await new Browser().post("/auth?mode=signup", fields);
    expect(response.status).toBe(400);
    await expectText(response, message);
  });

  it("refuses weak, common and mismatched passwords", async () => {
    const weak = await new Browser().post("/auth?mode=signup", signUpFields(uniqueEmail(), { password: "abcdefgh", confirmPassword: "abcdefgh" }));
    await expectText(weak, M.passwordTooWeak);
    const common = await new Browser().post("/auth?mode=signup", signUpFields(uniqueEmail(), { password: "Password123!", confirmPassword: "Password123!" }));
    await expectText(common, M.commonPassword);
    const mismatch = await new Browser().post("/auth?mode=signup", signUpFields(uniqueEmail(), { confirmPassword: "Sunny-Day-43" }));
    await expectText(mismatch, M.passwordsDoNotMatch);
  });

  it("locks sign-up of an address for 30 minutes after more than 3 failures", async () => {
    const browser = new Browser();
    const email = uniqueEmail("signup-lock");
    const bad = () => browser.post("/auth?mode=signup", signUpFields(email, { securityAnswer: "x" }));
    for (let i = 0; i < 3; i++) expect((await bad()).status).toBe(400);
    const fourth = await bad();
    expect(fourth.status).toBe(429);
    await expectText(fourth, M.signUpLocked);
    const next = await browser.post("/auth?mode=signup", signUpFields(email));
    expect(next.status).toBe(429);
    const html = await next.text();
    const seconds = Number(/Please wait (\d+) seconds/.exec(html)?.[1]);
    expect(seconds).toBeGreaterThan(29 * 60);
    expect(seconds).toBeLessThanOrEqual(30 * 60);
  });
});

describe("confirmation and sign-in", () => {
  it("refuses sign-in before confirmation, then confirms through the link and signs in", async () => {
    const email = uniqueEmail("confirm");
    const browser = new Browser();
    await browser.post("/auth?mode=signup", signUpFields(email));
    const mail = await waitForMail(email, /Confirm your Modelify account/);
    const early = await browser.post("/auth?mode=signin", { intent: "signin", email, password: STRONG_PASSWORD });
    expect(early.status).toBe(403);
    await expectText(early, M.emailNotConfirmed);

    const path = linkPath(mail.links[0]!);
    // GET only shows the page: a mail scanner fetching the link confirms nothing.
    const page = await browser.get(path);
    expect(page.status).toBe(200);
    await expectText(page, "Completing Authentication...");
    const stillUnconfirmed = await db.query.users.findFirst({ where: eq(schema.users.email, email) });
    expect(stillUnconfirmed?.emailConfirmedAt).toBeNull();

    const token = new URL(mail.links[0]!).searchParams.get("token")!;
    const confirm = await browser.post(path, { token });
    expect(confirm.status).toBe(302);
    expect(confirm.headers.get("Location")).toBe("/dashboard");
    const cookies = confirm.headers.getSetCookie().join("\n");
    expect(cookies).toMatch(/mfy_access=.*HttpOnly/);
    expect(cookies).toMatch(/mfy_refresh=.*HttpOnly/);
    expect(cookies).toMatch(/SameSite=Lax/);

    const dashboard = await browser.get("/dashboard");
    expect(dashboard.status).toBe(200);
    // The account's first session: "Welcome", not "Welcome back".
    await expectText(dashboard, "Welcome, Ada Lovelace");
    await expectText(dashboard, "No active subscription");
    await expectText(dashboard, "Inactive");

    // The profile was created from the sign-up metadata at this first sign-in.
    const user = await db.query.users.findFirst({ where: eq(schema.users.email, email) });
    const profile = await db.query.userProfiles.findFirst({ where: eq(schema.userProfiles.userId, user!.id) });
    expect(profile).toMatchObject({ firstName: "Ada", lastName: "Lovelace", initial: "K", phoneNumber: "+15551234567", securityQuestion: "first_pet" });
    expect(profile?.lastLoginAt).toBeGreaterThan(Date.now() - 60_000);

    // The link works once.
    const again = await new Browser().post(path, { token });
    expect(again.status).toBe(400);
    await expectText(again, M.invalidConfirmationLink);
  });

  it("shows an unknown confirmation token as an Authentication Error", async () => {
    const page = await new Browser().get("/auth/callback?type=signup&token=not-a-real-token");
    expect(page.status).toBe(200);
    await expectText(page, "Authentication Error");
    await expectText(page, M.invalidConfirmationLink);
    await expectText(page, "Try Again");
    // The error's words come from the site's own list, keyed by the code; the URL's description is never shown.
    const withError = await new Browser().get("/auth/callback?error=otp_expired&error_description=Email+link+is+invalid");
    await expectText(withError, M.invalidConfirmationLink);
    expect(await bodies.get(withError)!).not.toContain("Email link is invalid");
  });

  it("signs in with the spec's success text, a fresh session id each time, and knows a returning user", async () => {
    const { email } = await createConfirmedUser();
    const a = new Browser();
    const first = await a.post("/auth?mode=signin", { intent: "signin", email, password: STRONG_PASSWORD });
    expect(first.status).toBe(200);
    await expectText(first, M.signInSuccess("dashboard"));
    const b = new Browser();
    await b.post("/auth?mode=signin&from=pricing", { intent: "signin", email, password: STRONG_PASSWORD });
    expect(a.cookies.get("mfy_refresh")).not.toBe(b.cookies.get("mfy_refresh"));
    const sessions = await db
      .select()
      .from(schema.sessions)
      .innerJoin(schema.users, eq(schema.users.id, schema.sessions.userId))
      .where(eq(schema.users.email, email));
    expect(new Set(sessions.map((s) => s.sessions.id)).size).toBe(sessions.length);
    expect(sessions.length).toBeGreaterThanOrEqual(3);
    // A signed-in user on /auth goes to the dashboard, or to pricing when subscribing.
    expect((await a.get("/auth")).headers.get("Location")).toBe("/dashboard");
    expect((await a.get("/auth?mode=signin&from=pricing&subscribe=true")).headers.get("Location")).toBe("/pricing");
    const signupMode = await a.get("/auth?mode=signup");
    expect(signupMode.status).toBe(200);
    await expectText(signupMode, "Already Signed In");
    await expectText(signupMode, "Sign Out &amp; Create New Account");
    // No "Back to Dashboard" for a signed-out visitor, even one who signed in here before: the
    // dashboard would only send them back to sign in (issue 46).
    await a.post("/auth/sign-out", { redirectTo: "/auth" });
    for (const mode of ["signin", "signup", "forgot-password"])
      expect(await (await a.get(`/auth?mode=${mode}`)).text(), mode).not.toContain("Back to Dashboard");
    expect(await (await new Browser().get("/auth")).text()).not.toContain("Back to Dashboard");
  });

  it("refuses bad credentials with the spec's message and validates the form", async () => {
    const { email } = await createConfirmedUser();
    const wrong = await new Browser().post("/auth?mode=signin", { intent: "signin", email, password: "Wrong-Pass-1" });
    expect(wrong.status).toBe(401);
    await expectText(wrong, M.invalidCredentials);
    const unknown = await new Browser().post("/auth?mode=signin", { intent: "signin", email: uniqueEmail("nobody"), password: "Wrong-Pass-1" });
    expect(unknown.status).toBe(401);
    await expectText(unknown, M.invalidCredentials);
    const badEmail = await new Browser().post("/auth?mode=signin", { intent: "signin", email: "nope", password: "Wrong-Pass-1" });
    expect(badEmail.status).toBe(400);
    await expectText(badEmail, M.invalidEmail);
    const shortPassword = await new Browser().post("/auth?mode=signin", { intent: "signin", email, password: "1234567" });
    expect(shortPassword.status).toBe(400);
    await expectText(shortPassword, M.passwordTooShort);
  });

  it("locks the account for 15 minutes after more than 4 failures, across browsers and IPs", async () => {
    const { email } = await createConfirmedUser();
    for (let i = 0; i < 4; i++) {
      const r = await new Browser().post("/auth?mode=signin", { intent: "signin", email, password: `Wrong-Pass-${i}` });
      expect(r.status).toBe(401);
    }
    const fifth = await new Browser().post("/auth?mode=signin", { intent: "signin", email, password: "Wrong-Pass-5" });
    expect(fifth.status).toBe(429);
    await expectText(fifth, M.signInLocked);
    // Another browser from another address, with the right password: still locked.
    const other = await new Browser().post("/auth?mode=signin", { intent: "signin", email, password: STRONG_PASSWORD });
    expect(other.status).toBe(429);
    const seconds = Number(/Please wait (\d+) seconds/.exec(await other.text())?.[1]);
    expect(seconds).toBeGreaterThan(14 * 60);
    expect(seconds).toBeLessThanOrEqual(15 * 60);
    // The desktop API shares the lock.
    const api = await fetchJson("/api/v1/auth/token", { email, password: STRONG_PASSWORD });
    expect(api.status).toBe(429);
    expect((await api.json<{ error: string }>()).error).toMatch(/Too many attempts\. Please wait \d+ seconds before trying again\./);
  });
});

describe("forgot and reset password", () => {
  it("answers the same for unknown addresses and e-mails a recovery link to real ones", async () => {
    const unknown = await new Browser().post("/auth?mode=forgot-password", { intent: "forgot-password", email: uniqueEmail("ghost") });
    expect(unknown.status).toBe(200);
    await expectText(unknown, M.resetEmailSent);

    const { email } = await createConfirmedUser();
    const other = new Browser();
    await other.post("/auth?mode=signin", { intent: "signin", email, password: STRONG_PASSWORD });
    expect((await other.get("/dashboard")).status).toBe(200);

    const start = Date.now();
    const browser = new Browser();
    const response = await browser.post("/auth?mode=forgot-password", { intent: "forgot-password", email });
    await expectText(response, M.resetEmailSent);
    const mail = await waitForMail(email, /Reset your Modelify password/, { after: start });
    const link = mail.links[0]!;
    expect(link).toMatch(/\/auth\/callback\?type=recovery&token=/);

    // The callback moves the token into an HttpOnly cookie and goes to the reset page.
    const callback = await browser.get(linkPath(link));
    expect(callback.status).toBe(302);
    expect(callback.headers.get("Location")).toBe("/auth/reset-password");
    expect(callback.headers.get("Set-Cookie")).toMatch(/mfy_recovery=.*Path=\/auth; HttpOnly/);
    await expectText(await browser.get("/auth/reset-password"), "Reset Your Password");

    // The reset page's rules.
    const tooShort = await browser.post("/auth/reset-password", { password: "abc12", confirmPassword: "abc12" });
    expect(tooShort.status).toBe(400);
    await expectText(tooShort, M.passwordTooShort);
    // The page says 8 before anything is typed (the strength meter sign-up shows), as the server refuses fewer.
    expect(await (await browser.get("/auth/reset-password")).text()).toContain(`including ${PASSWORD.minLength}+ characters`);
    const mismatch = await browser.post("/auth/reset-password", { password: "New-Secret-77", confirmPassword: "New-Secret-78" });
    await expectText(mismatch, M.passwordsDoNotMatch);
    const missing = await browser.post("/auth/reset-password", { password: "", confirmPassword: "" });
    await expectText(missing, M.resetBothRequired);
    const sevenChars = await browser.post("/auth/reset-password", { password: "Abc-123", confirmPassword: "Abc-123" });
    await expectText(sevenChars, M.passwordTooShort);

    const ok = await browser.post("/auth/reset-password", { password: "New-Secret-77", confirmPassword: "New-Secret-77" });
    expect(ok.status).toBe(200);
    await expectText(ok, "Password Updated!");
    expect((await browser.get("/dashboard")).status).toBe(200);

    // Every other session ended; old password refused; new one works; link used up.
    expect((await other.get("/dashboard")).headers.get("Location")).toBe("/auth");
    expect((await new Browser().post("/auth?mode=signin", { intent: "signin", email, password: STRONG_PASSWORD })).status).toBe(401);
    expect((await new Browser().post("/auth?mode=signin", { intent: "signin", email, password: "New-Secret-77" })).status).toBe(200);
    const reuse = new Browser();
    await reuse.get(linkPath(link));
    await expectText(await reuse.get("/auth/reset-password"), "Invalid Reset Link");
  });

  it("shows Invalid Reset Link without a valid link", async () => {
    const page = await new Browser().get("/auth/reset-password");
    await expectText(page, "Invalid Reset Link");
    await expectText(page, M.invalidResetLink);
    await expectText(page, "Return to Sign In");
    const post = await new Browser().post("/auth/reset-password", { password: "New-Secret-77", confirmPassword: "New-Secret-77" });
    expect(post.status).toBe(400);
    await expectText(post, "Invalid Reset Link");
  });
});

async function fetchJson(path: string, body: unknown, headers: Record<string, string> = {}) {
  const { SELF } = await import("cloudflare:test");
  return SELF.fetch(`http://localhost${path}`, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      "CF-Connecting-IP": `172.16.${Math.floor(Math.random() * 255)}.${Math.floor(Math.random() * 255)}`,
      ...headers,
    },
    body: JSON.stringify(body),
  });
}

describe("failures on our side", () => {
  it("shows the spec's page-level texts with a 503 when the database is down", async () => {
    const { createExecutionContext, waitOnExecutionContext } = await import("cloudflare:test");
    const worker = (await import("../worker")).default;
    const brokenDb = new Proxy(env.DB, {
      get(target, prop) {
        if (prop === "prepare" || prop === "batch")
          return () => {
            throw new Error("D1 is unavailable");
          };
        return Reflect.get(target, prop);
      },
    });
    const brokenEnv = { ...env, DB: brokenDb } as typeof env;
    const cases: Array<[string, Record<string, string>, string]> = [
      ["/auth?mode=signin", { intent: "signin", email: "a@example.com", password: "Sunny-Day-42" }, M.signInUnexpected],
      ["/auth?mode=signup", signUpFields(uniqueEmail()), M.signUpUnexpected],
      ["/auth?mode=forgot-password", { intent: "forgot-password", email: "a@example.com" }, M.resetEmailFailed],
    ];
    for (const [path, fields, message] of cases) {
      const ctx = createExecutionContext();
      const request = new Request(`http://localhost${path}`, {
        method: "POST",
        body: new URLSearchParams(fields),
        headers: { Origin: "http://localhost", "Content-Type": "application/x-www-form-urlencoded", "CF-Connecting-IP": "192.0.2.99" },
      }) as unknown as Request<unknown, IncomingRequestCfProperties>;
      const response = await worker.fetch(request, brokenEnv, ctx);
      await waitOnExecutionContext(ctx);
      expect(response.status).toBe(503);
      await expectText(response, message);
    }
  });
});
