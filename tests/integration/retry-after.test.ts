// Every 429 of the site says how long to wait (issue 25): each rate-limited route is driven to its
// refusal through the whole Worker, and its Retry-After must be whole seconds, at least 1 and at
// most the rule's window. Where the subject is not sign-up, accounts and counters are written
// straight to D1, and refusals come from parallel bursts, so the walk stays fast.
import { SELF } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { beginAttempt, failAttempt, ipGuardKey, ipSubject, isRefusal } from "~/lib/auth/lockout";
import { hashSecret } from "~/lib/auth/password";
import { issueOneTimeToken } from "~/lib/auth/one-time-tokens.server";
import {
  DEVICE_AUTH,
  EARLY_ACCESS,
  EMAIL_CHANGE,
  IP_GUARD,
  LOCKOUT,
  MAIL_CAP,
  MARKETING,
  ONE_TIME_TOKEN,
  PASSKEY,
  PHONE_CODE,
  SUPPORT,
  USAGE_API,
} from "~/lib/constants";
import { schema } from "~/lib/db.server";
import { Browser, db, insertUser, ORIGIN, signedInAs, signUpFields, STRONG_PASSWORD, uniqueEmail, uniqueIp } from "./helpers";
import { SoftPasskey } from "./passkey-authenticator";

const WRONG_PASSWORD = "Wrong-Pass-99";
const seconds = (ms: number) => ms / 1000;

/** A 429 that says how long to wait: Retry-After in whole seconds, at least 1, at most the rule's window. */
function expectRetryAfter(response: Response, windowSeconds: number, what: string): number {
  expect(response.status, what).toBe(429);
  const header = response.headers.get("Retry-After");
  expect(header, `${what}: Retry-After`).toMatch(/^[1-9][0-9]*$/);
  const wait = Number(header);
  expect(wait, `${what}: Retry-After within the rule's window`).toBeLessThanOrEqual(windowSeconds);
  return wait;
}

const refusals = (answers: Response[]) => answers.filter((a) => a.status === 429);

/** Fires `send` in parallel batches until one answer is a 429 (bounded by a request count, not a clock). */
async function firstRefusal(send: () => Promise<Response>, { batch = 20, max = 400 } = {}): Promise<Response> {
  for (let sent = 0; sent < max; sent += batch) {
    const refused = refusals(await Promise.all(Array.from({ length: batch }, send)))[0];
    if (refused) return refused;
  }
  throw new Error(`no 429 in ${max} requests`);
}

/** A confirmed account written straight to D1. */
async function account() {
  const email = uniqueEmail("ra");
  const user = await insertUser({ email, passwordHash: await hashSecret(STRONG_PASSWORD), metadata: {}, confirmed: true });
  return { email, id: user.id };
}

/** A counter as a limit left it: `count` events so far, its window ending `endsInMs` from now. */
async function presetCounter(key: string, count: number, endsInMs: number, now = Date.now()) {
  const expiresAt = now + endsInMs;
  await db
    .insert(schema.attemptCounters)
    .values({ key, count, expiresAt })
    .onConflictDoUpdate({ target: schema.attemptCounters.key, set: { count, expiresAt } });
}

const signIn = (browser: Browser, email: string, password = WRONG_PASSWORD) => browser.post("/auth?mode=signin", { intent: "signin", email, password });

function apiJson(path: string, body: unknown, headers: Record<string, string> = {}) {
  return SELF.fetch(`${ORIGIN}${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "CF-Connecting-IP": uniqueIp(), ...headers },
    body: JSON.stringify(body),
  });
}

describe("sign-in and sign-up", () => {
  it("sign-in lockout: the web form and the desktop app's password grant", async () => {
    const { email } = await account();
    const answers = await Promise.all(Array.from({ length: 7 }, () => signIn(new Browser(), email)));
    expect(answers.map((a) => a.status).sort()).toEqual([401, 401, 401, 401, 429, 429, 429]);
    for (const refused of refusals(answers)) expectRetryAfter(refused, seconds(LOCKOUT.signIn.lockMs), "sign-in form");
    expectRetryAfter(await apiJson("/api/v1/auth/token", { email, password: STRONG_PASSWORD }), seconds(LOCKOUT.signIn.lockMs), "password grant");
  });

  it("the lockout names the wait of the 429 a failure causes: the rest of the lock, or of the address's guard window", async () => {
    const now = Date.now();
    const email = uniqueEmail("ra-lock");
    const ip = uniqueIp();
    const results = [];
    for (let i = 0; i <= LOCKOUT.signIn.maxFailures; i++) {
      const attempt = await beginAttempt(db, "signIn", { email, ip }, now);
      if (isRefusal(attempt)) throw new Error(`attempt ${i + 1} refused`);
      results.push(await failAttempt(db, attempt, now + 1_000));
    }
    expect(results.at(-2)).toEqual({ locked: false, retryAfterSeconds: null });
    expect(results.at(-1)).toEqual({ locked: true, retryAfterSeconds: seconds(LOCKOUT.signIn.lockMs) - 1 });

    const guarded = uniqueIp();
    await presetCounter(ipGuardKey("signIn", guarded), IP_GUARD.signIn.failures, 10 * 60_000, now);
    const attempt = await beginAttempt(db, "signIn", { email: uniqueEmail("ra-guard"), ip: uniqueIp() }, now);
    if (isRefusal(attempt)) throw new Error("refused");
    // As if from the guarded address (beginAttempt would first wait its 2 s there).
    const throttled = { ...attempt, ipKey: ipGuardKey("signIn", guarded), throttled: true };
    expect(await failAttempt(db, throttled, now + 1_000)).toEqual({ locked: false, retryAfterSeconds: 10 * 60 - 1 });
  });

  it("sign-in guard of a client address after 30 failures", async () => {
    const browser = new Browser();
    const accounts = await Promise.all(Array.from({ length: IP_GUARD.signIn.failures / (LOCKOUT.signIn.maxFailures + 1) }, account));
    await Promise.all(accounts.flatMap(({ email }) => Array.from({ length: LOCKOUT.signIn.maxFailures + 1 }, () => signIn(browser, email))));
    const { email } = await account();
    expectRetryAfter(await signIn(browser, email), seconds(IP_GUARD.signIn.windowMs), "sign-in guard");
  });

  it("sign-up lockout", async () => {
    const email = uniqueEmail("ra-signup");
    const invalid = signUpFields(email, { password: "short", confirmPassword: "short" });
    const answers = await Promise.all(Array.from({ length: 6 }, () => new Browser().post("/auth?mode=signup", invalid)));
    expect(answers.map((a) => a.status).sort()).toEqual([400, 400, 400, 429, 429, 429]);
    for (const refused of refusals(answers)) expectRetryAfter(refused, seconds(LOCKOUT.signUp.lockMs), "sign-up form");
  });

  it("the confirmation link's password, under the sign-in lockout", async () => {
    const email = uniqueEmail("ra-link");
    const user = await insertUser({ email, passwordHash: await hashSecret(STRONG_PASSWORD), metadata: {} });
    const token = await issueOneTimeToken(db, user.id, "signup", ONE_TIME_TOKEN.signupTtlMs);
    const path = `/auth/callback?type=signup&token=${token}`;
    const answers = await Promise.all(Array.from({ length: 6 }, () => new Browser().post(path, { token, password: WRONG_PASSWORD })));
    expect(answers.map((a) => a.status).sort()).toEqual([401, 401, 401, 401, 429, 429]);
    for (const refused of refusals(answers)) expectRetryAfter(refused, seconds(LOCKOUT.signIn.lockMs), "confirmation link");
  });

  it("forgot password and the mail caps answer no 429 at all: over a cap the answer stays the same (it must not tell)", async () => {
    const browser = new Browser();
    const email = uniqueEmail("ra-forgot");
    const forgot = await Promise.all(
      Array.from({ length: MAIL_CAP.perIp.limit + 2 }, () => browser.post("/auth?mode=forgot-password", { intent: "forgot-password", email })),
    );
    expect(new Set(forgot.map((a) => a.status))).toEqual(new Set([200]));
    // One after another: sign-up reserves its lockout count before the form is checked, so a
    // parallel burst of valid forms for one address would meet the sign-up lock instead.
    const signUps: Response[] = [];
    for (let i = 0; i <= MAIL_CAP.confirmationsPerAddress.limit; i++) signUps.push(await new Browser().post("/auth?mode=signup", signUpFields(email)));
    expect(new Set(signUps.map((a) => a.status))).toEqual(new Set([200]));
  });
});

describe("the account's pages", () => {
  it("phone codes: sends per account and per number, checks per code (JSON dialog and /verify-phone)", async () => {
    const { browser, id } = await signedInAs("user");
    expect((await browser.get("/dashboard/profile")).status).toBe(200); // makes the profile
    const phone = `+1555${String(Date.now() % 1e7).padStart(7, "0")}`;
    await db.update(schema.userProfiles).set({ phoneNumber: phone }).where(eq(schema.userProfiles.userId, id));
    const send = () => browser.post("/dashboard/profile/phone", { intent: "send" }, { Accept: "application/json" });

    // Sends: the counters as five sends 20 minutes ago would have left them.
    await presetCounter(`phone-send:user:${id}`, PHONE_CODE.sendsPerUser.limit, 40 * 60_000);
    const perUser = expectRetryAfter(await send(), seconds(PHONE_CODE.sendsPerUser.windowMs), "sends per account");
    expect(perUser).toBeGreaterThanOrEqual(40 * 60 - 2);
    await presetCounter(`phone-send:user:${id}`, 0, 1);
    await presetCounter(`phone-send:number:${phone}`, PHONE_CODE.sendsPerNumber.limit, 10 * 60_000);
    const perNumber = expectRetryAfter(await send(), seconds(PHONE_CODE.sendsPerNumber.windowMs), "sends per number");
    expect(perNumber).toBeGreaterThanOrEqual(10 * 60 - 2);
    await presetCounter(`phone-send:number:${phone}`, 0, 1);

    // Checks: a burst of wrong codes gets the code's five checks, the rest wait.
    expect((await send()).status).toBe(200);
    const dialog = await Promise.all(
      Array.from({ length: 10 }, () => browser.post("/dashboard/profile/phone", { intent: "verify", code: "000000" }, { Accept: "application/json" })),
    );
    const dialogRefusals = refusals(dialog);
    expect(dialogRefusals.length).toBeGreaterThan(0);
    for (const refused of dialogRefusals) expectRetryAfter(refused, PHONE_CODE.ttlSeconds, "checks per code (dialog)");

    expect((await send()).status).toBe(200);
    const page = await Promise.all(Array.from({ length: 10 }, () => browser.post("/verify-phone", { code: "000000", phone })));
    const pageRefusals = refusals(page);
    expect(pageRefusals.length).toBeGreaterThan(0);
    for (const refused of pageRefusals) expectRetryAfter(refused, PHONE_CODE.ttlSeconds, "checks per code (/verify-phone)");
  });

  it("e-mail changes per account", async () => {
    const { browser, email } = await signedInAs("user");
    expect((await browser.get("/dashboard/profile")).status).toBe(200);
    const save = (newEmail: string) =>
      browser.post("/dashboard/profile?edit=1", {
        intent: "save",
        firstName: "Ada",
        lastName: "Lovelace",
        email: newEmail,
        currentPassword: STRONG_PASSWORD,
        securityQuestion: "",
        securityAnswer: "",
      });
    const answers = await Promise.all(Array.from({ length: 7 }, () => save(uniqueEmail("ra-new"))));
    expect(refusals(answers).length, `${answers.map((a) => a.status)} (account ${email})`).toBeGreaterThan(0);
    for (const refused of refusals(answers)) expectRetryAfter(refused, seconds(EMAIL_CHANGE.requestsPerUser.windowMs), "e-mail changes");
  });

  it("activation keys redeemed per account", async () => {
    const { browser } = await signedInAs("user");
    const guess = () => Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"[b % 32]).join("");
    const answers = await Promise.all(
      Array.from({ length: EARLY_ACCESS.redeemAttempts.perUser.maxFailures + 3 }, () => browser.post("/activate", { key: guess() })),
    );
    expect(refusals(answers).length).toBeGreaterThan(0);
    for (const refused of refusals(answers)) expectRetryAfter(refused, seconds(EARLY_ACCESS.redeemAttempts.perUser.windowMs), "redeem");
  });
});

describe("the public site", () => {
  it("waitlist joins per client address", async () => {
    const ip = uniqueIp();
    const answers = await Promise.all(
      Array.from({ length: EARLY_ACCESS.waitlistJoinsPerIp.limit + 1 }, () =>
        new Browser(ip).post("/early-access", { email: uniqueEmail("ra-wait"), firstName: "Ada", lastName: "Lovelace" }),
      ),
    );
    expect(refusals(answers)).toHaveLength(1);
    expectRetryAfter(refusals(answers)[0]!, seconds(EARLY_ACCESS.waitlistJoinsPerIp.windowMs), "waitlist");
  });

  it("support messages per client address and per address written in", async () => {
    const message = (email: string) => ({ name: "Grace Hopper", email, subject: "A question", message: "Hello", priority: "low" });
    const ip = uniqueIp();
    const perIp = await Promise.all(
      Array.from({ length: SUPPORT.perIp.limit + 1 }, () => new Browser(ip).post("/contact", message(uniqueEmail("ra-support")))),
    );
    expect(refusals(perIp)).toHaveLength(1);
    expectRetryAfter(refusals(perIp)[0]!, seconds(SUPPORT.perIp.windowMs), "support per client address");
    const email = uniqueEmail("ra-support");
    const perAddress = await Promise.all(Array.from({ length: SUPPORT.perAddress.limit + 1 }, () => new Browser().post("/contact", message(email))));
    expect(refusals(perAddress)).toHaveLength(1);
    expectRetryAfter(refusals(perAddress)[0]!, seconds(SUPPORT.perAddress.windowMs), "support per address");
  });

  it("marketing events per client address, with the real remaining wait", async () => {
    const browser = new Browser();
    await presetCounter(`events:ip:${ipSubject(browser.ip)}`, MARKETING.browserEventsPerIp.limit, 1234_000);
    const answer = await SELF.fetch(`${ORIGIN}/events`, {
      method: "POST",
      body: JSON.stringify({ name: "ViewContent", path: "/" }),
      headers: { Origin: ORIGIN, "CF-Connecting-IP": browser.ip, "Content-Type": "application/json" },
    });
    const wait = expectRetryAfter(answer, seconds(MARKETING.browserEventsPerIp.windowMs), "events");
    expect(wait).toBeGreaterThanOrEqual(1232);
    expect(wait).toBeLessThanOrEqual(1234);
  });
});

describe("passkeys", () => {
  it("sign-in answers per client address, with the real remaining wait", async () => {
    const ip = uniqueIp();
    await presetCounter(`passkey:signin:ip:${ipSubject(ip)}`, PASSKEY.signInAnswersPerIp.limit, 321_000);
    const asked = await SELF.fetch(`${ORIGIN}/auth/passkey/options`, { method: "POST", headers: { Origin: ORIGIN, "CF-Connecting-IP": ip } });
    const { options } = (await asked.json()) as { options: Parameters<SoftPasskey["authenticate"]>[0] };
    const answer = await SELF.fetch(`${ORIGIN}/auth/passkey/verify`, {
      method: "POST",
      body: JSON.stringify({ response: await new SoftPasskey().authenticate(options) }),
      headers: { Origin: ORIGIN, "CF-Connecting-IP": ip, "Content-Type": "application/json" },
    });
    const wait = expectRetryAfter(answer, seconds(PASSKEY.signInAnswersPerIp.windowMs), "passkey sign-in answers");
    expect(wait).toBeGreaterThanOrEqual(319);
    expect(wait).toBeLessThanOrEqual(321);
  });

  it("registration challenges per account", async () => {
    const { browser } = await signedInAs("user");
    const answers = await Promise.all(
      Array.from({ length: PASSKEY.registerOptionsPerUser.limit + 1 }, () =>
        browser.post("/dashboard/profile/passkeys", { intent: "options" }, { Accept: "application/json" }),
      ),
    );
    expect(refusals(answers)).toHaveLength(1);
    expectRetryAfter(refusals(answers)[0]!, seconds(PASSKEY.registerOptionsPerUser.windowMs), "passkey registration challenges");
  });
});

describe("the desktop app", () => {
  const deviceRequest = () => ({
    client_id: DEVICE_AUTH.clientId,
    device_name: "Retry-After laptop",
    platform: "linux",
    app_version: "1.0.0",
    app_instance_id: crypto.randomUUID(),
  });

  it("device code requests per client address", async () => {
    const ip = uniqueIp();
    const answers = await Promise.all(
      Array.from({ length: DEVICE_AUTH.requestsPerIp.max + 2 }, () => apiJson("/api/v1/auth/device", deviceRequest(), { "CF-Connecting-IP": ip })),
    );
    expect(refusals(answers)).toHaveLength(2);
    for (const refused of refusals(answers)) expectRetryAfter(refused, seconds(DEVICE_AUTH.requestsPerIp.windowMs), "device code requests");
  });

  it("wrong codes on /device, from the page and the app's link", async () => {
    const { browser } = await signedInAs("user");
    const wrong = () => `BBBB-${"CDFGHJKLMN"[Math.floor(Math.random() * 10)]}${"PQRSTVWXZ"[Math.floor(Math.random() * 9)]}BB`;
    const answers = await Promise.all(
      Array.from({ length: DEVICE_AUTH.wrongCodes.max + 2 }, () => browser.post("/device", { intent: "lookup", code: wrong() })),
    );
    expect(refusals(answers)).toHaveLength(2);
    for (const refused of refusals(answers)) expectRetryAfter(refused, seconds(DEVICE_AUTH.wrongCodes.windowMs), "wrong codes (form)");
    const link = await browser.get(`/device?code=${wrong()}`, { headers: { "Sec-Fetch-Site": "none" } });
    expectRetryAfter(link, seconds(DEVICE_AUTH.wrongCodes.windowMs), "wrong codes (link)");
  });

  it("the password /device asks of an old session, under the sign-in lockout", async () => {
    const { browser, id } = await signedInAs("user");
    await db
      .update(schema.sessions)
      .set({ createdAt: Date.now() - 13 * 3_600_000 })
      .where(eq(schema.sessions.userId, id));
    const code = (await (await apiJson("/api/v1/auth/device", deviceRequest())).json<{ user_code: string }>()).user_code;
    const answers = await Promise.all(Array.from({ length: 7 }, () => browser.post("/device", { intent: "approve", code, password: WRONG_PASSWORD })));
    expect(answers.map((a) => a.status).sort()).toEqual([401, 401, 401, 401, 429, 429, 429]);
    for (const refused of refusals(answers)) expectRetryAfter(refused, seconds(LOCKOUT.signIn.lockMs), "device approval password");
  });

  it("polling the token too soon is RFC 8628's 400 slow_down, not a 429", async () => {
    const { device_code } = await (await apiJson("/api/v1/auth/device", deviceRequest())).json<{ device_code: string }>();
    const poll = () =>
      apiJson("/api/v1/auth/token", { grant_type: "urn:ietf:params:oauth:grant-type:device_code", device_code, client_id: DEVICE_AUTH.clientId });
    expect((await poll()).status).toBe(400);
    const soon = await poll();
    expect(soon.status).toBe(400);
    expect(((await soon.json()) as { error: string }).error).toBe("slow_down");
  });

  it("usage reports per device key, both usage routes, with the seconds left in the minute", async () => {
    const { email } = await account();
    const signedIn = await apiJson("/api/v1/auth/token", { email, password: STRONG_PASSWORD });
    const { access_token: token } = await signedIn.json<{ access_token: string }>();
    const post = (path: string) => () => apiJson(path, { reports: [] }, { Authorization: `Bearer ${token}` });
    expectRetryAfter(await firstRefusal(post("/api/v1/usage")), USAGE_API.rateLimitPeriodSeconds, "usage");
    expectRetryAfter(await firstRefusal(post("/api/v1/usage/secure-report")), USAGE_API.rateLimitPeriodSeconds, "secure report");
  });
});
