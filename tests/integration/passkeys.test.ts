// Passkeys through the whole Worker (issue 29): register from the profile, sign in with the
// passkey, rename and remove it; challenges single use and short-lived; nobody touches another
// account's passkeys; the options endpoints are capped.
import { SELF } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { PASSKEY } from "~/lib/constants";
import { PASSKEY_MESSAGES as M } from "~/lib/auth/passkey-messages";
import { authenticationOptions, relyingParty, sweepExpiredChallenges } from "~/lib/auth/passkeys.server";
import { schema } from "~/lib/db.server";
import { Browser, createConfirmedUser, db, ORIGIN, SESSION_KEYS, uniqueIp } from "./helpers";
import { SoftPasskey } from "./passkey-authenticator";

const PROFILE_ROUTE = "/dashboard/profile/passkeys";
const JSON_ACCEPT = { Accept: "application/json" };

async function registrationOptionsFor(browser: Browser) {
  const response = await browser.post(PROFILE_ROUTE, { intent: "options" }, JSON_ACCEPT);
  expect(response.status).toBe(200);
  return ((await response.json()) as { options: Parameters<SoftPasskey["register"]>[0] }).options;
}

async function register(browser: Browser, passkey: SoftPasskey, name = "Laptop") {
  const options = await registrationOptionsFor(browser);
  return browser.post(PROFILE_ROUTE, { intent: "register", name, response: JSON.stringify(await passkey.register(options)) }, JSON_ACCEPT);
}

async function signInOptions(ip = uniqueIp()) {
  const response = await SELF.fetch(`${ORIGIN}/auth/passkey/options`, { method: "POST", headers: { Origin: ORIGIN, "CF-Connecting-IP": ip } });
  expect(response.status).toBe(200);
  return ((await response.json()) as { options: Parameters<SoftPasskey["authenticate"]>[0] }).options;
}

async function verify(answer: unknown, browser = new Browser(), query = "") {
  const response = await SELF.fetch(`${ORIGIN}/auth/passkey/verify${query}`, {
    method: "POST",
    body: JSON.stringify({ response: answer }),
    headers: { Origin: ORIGIN, "Content-Type": "application/json", "CF-Connecting-IP": browser.ip },
  });
  browser.store(response);
  return { response, browser, body: (await response.json()) as { ok?: true; destination?: string; error?: string } };
}

async function userWithPasskey() {
  const user = await createConfirmedUser();
  const passkey = new SoftPasskey();
  const registered = await register(user.browser, passkey);
  expect(registered.status).toBe(200);
  return { ...user, passkey };
}

describe("passkeys", () => {
  it("registers a passkey, signs in with it straight to a session, and after removal it no longer works", async () => {
    const { browser, id, passkey } = await userWithPasskey();
    const [row] = await db.select().from(schema.passkeys).where(eq(schema.passkeys.userId, id));
    expect(row).toMatchObject({ id: passkey.id, name: "Laptop", lastUsedAt: null, deviceType: "singleDevice" });

    const signedIn = await verify(await passkey.authenticate(await signInOptions()), new Browser(), "?from=pricing");
    expect(signedIn.response.status).toBe(200);
    expect(signedIn.body).toEqual({ ok: true, destination: "/pricing" });
    expect(signedIn.browser.cookies.get("mfy_access")).toBeTruthy();
    const dashboard = await signedIn.browser.get("/dashboard/profile");
    expect(dashboard.status).toBe(200);
    const used = await db.query.passkeys.findFirst({ where: eq(schema.passkeys.id, passkey.id) });
    expect(used?.lastUsedAt).toBeGreaterThan(0);
    expect(used?.counter).toBe(1);
    expect(await dashboard.text()).toContain("Last used");

    const renamed = await browser.post(PROFILE_ROUTE, { intent: "rename", id: passkey.id, name: "Work laptop" });
    expect(renamed.status).toBe(303);
    expect(renamed.headers.get("Location")).toContain("passkeys=renamed");
    expect((await db.query.passkeys.findFirst({ where: eq(schema.passkeys.id, passkey.id) }))?.name).toBe("Work laptop");

    const removed = await browser.post(PROFILE_ROUTE, { intent: "remove", id: passkey.id });
    expect(removed.headers.get("Location")).toContain("passkeys=removed");
    const after = await verify(await passkey.authenticate(await signInOptions()));
    expect(after.response.status).toBe(401);
    expect(after.body.error).toBe(M.unknownPasskey);
    expect(after.browser.cookies.get("mfy_access")).toBeUndefined();
  });

  it("accepts one answer to a sign-in challenge: two parallel verifications → one session", async () => {
    const { passkey } = await userWithPasskey();
    const options = await signInOptions();
    const answer = await passkey.authenticate(options);
    const results = await Promise.all([verify(answer), verify(answer)]);
    expect(results.map((r) => r.response.status).sort()).toEqual([200, 400]);
    expect(results.find((r) => r.response.status === 400)?.body.error).toBe(M.challengeExpired);
    // A later answer signed over the same challenge (a higher count) is refused too.
    const replay = await verify(await passkey.authenticate(options));
    expect(replay.response.status).toBe(400);
  });

  it("accepts one answer to a registration challenge, in parallel", async () => {
    const { browser } = await createConfirmedUser();
    const options = await registrationOptionsFor(browser);
    const [a, b] = [new SoftPasskey(), new SoftPasskey()];
    const answers = await Promise.all([a.register(options), b.register(options)]);
    const results = await Promise.all(
      answers.map((answer) => browser.post(PROFILE_ROUTE, { intent: "register", name: "Phone", response: JSON.stringify(answer) }, JSON_ACCEPT)),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 400]);
  });

  it("refuses an expired challenge", async () => {
    const { passkey } = await userWithPasskey();
    // A sign-in challenge carries its own expiry (signed): one made a challenge's life ago is dead.
    const { options } = await authenticationOptions(SESSION_KEYS, relyingParty(ORIGIN), Date.now() - PASSKEY.challengeTtlMs - 1);
    const late = await verify(await passkey.authenticate(options));
    expect(late.response.status).toBe(400);
    expect(late.body.error).toBe(M.challengeExpired);

    const { browser } = await createConfirmedUser();
    const registration = await registrationOptionsFor(browser);
    await db
      .update(schema.passkeyChallenges)
      .set({ expiresAt: Date.now() - 1 })
      .where(eq(schema.passkeyChallenges.challenge, registration.challenge));
    const refused = await browser.post(
      PROFILE_ROUTE,
      { intent: "register", name: "Late", response: JSON.stringify(await new SoftPasskey().register(registration)) },
      JSON_ACCEPT,
    );
    expect(refused.status).toBe(400);
  });

  it("lets nobody rename or remove another account's passkey, nor answer another's registration challenge", async () => {
    const owner = await userWithPasskey();
    const other = await createConfirmedUser();
    const rename = await other.browser.post(PROFILE_ROUTE, { intent: "rename", id: owner.passkey.id, name: "Mine now" }, JSON_ACCEPT);
    const remove = await other.browser.post(PROFILE_ROUTE, { intent: "remove", id: owner.passkey.id }, JSON_ACCEPT);
    expect([rename.status, remove.status]).toEqual([404, 404]);
    expect(await db.query.passkeys.findFirst({ where: eq(schema.passkeys.id, owner.passkey.id) })).toMatchObject({ name: "Laptop", userId: owner.id });

    // The owner's registration challenge, answered from the other account, is not theirs to spend.
    const options = await registrationOptionsFor(owner.browser);
    const stolen = await other.browser.post(
      PROFILE_ROUTE,
      { intent: "register", name: "X", response: JSON.stringify(await new SoftPasskey().register(options)) },
      JSON_ACCEPT,
    );
    expect(stolen.status).toBe(400);
    // Signed out: no changes at all.
    const anonymous = await new Browser().post(PROFILE_ROUTE, { intent: "remove", id: owner.passkey.id }, JSON_ACCEPT);
    expect(anonymous.status).toBe(401);
    const profile = await other.browser.get("/dashboard/profile");
    expect(await profile.text()).not.toContain(owner.passkey.id);
  });

  it("refuses an answer from another origin, a cloned passkey's stale count, and bad input", async () => {
    const { passkey } = await userWithPasskey();
    const foreign = await verify(await passkey.authenticate(await signInOptions(), { origin: "https://evil.example" }));
    expect(foreign.response.status).toBe(401);
    expect((await verify(await passkey.authenticate(await signInOptions(), { counter: 10 }))).response.status).toBe(200);
    const stale = await verify(await passkey.authenticate(await signInOptions(), { counter: 7 }));
    expect(stale.response.status).toBe(401);
    expect((await db.query.passkeys.findFirst({ where: eq(schema.passkeys.id, passkey.id) }))?.counter).toBe(10);
    const garbage = await verify({ id: "x", response: {} });
    expect(garbage.response.status).toBe(400);
  });

  it("logs why an answer was refused as a code of ours, never the origin the answer claimed", async () => {
    const { passkey } = await userWithPasskey();
    const origin = "https://evil.example";
    const warnings: string[] = [];
    const warn = console.warn.bind(console);
    vi.spyOn(console, "warn").mockImplementation((...args: unknown[]) => {
      warnings.push(String(args[0]));
      warn(...args);
    });
    try {
      expect((await verify(await passkey.authenticate(await signInOptions(), { origin }))).response.status).toBe(401);
    } finally {
      vi.restoreAllMocks();
    }
    const refused = warnings.filter((line) => line.includes('"event":"passkey_signin_refused"'));
    expect(refused).toHaveLength(1);
    expect(JSON.parse(refused[0]!)).toMatchObject({ reason: "origin_mismatch" });
    expect(refused[0]).not.toContain("evil.example");
  });

  it("the hourly sweep drops challenges nobody answered and keeps live ones", async () => {
    const { browser } = await createConfirmedUser();
    const expired = (await registrationOptionsFor(browser)).challenge;
    const live = (await registrationOptionsFor(browser)).challenge;
    await db
      .update(schema.passkeyChallenges)
      .set({ expiresAt: Date.now() - 1 })
      .where(eq(schema.passkeyChallenges.challenge, expired));
    expect(await sweepExpiredChallenges(db)).toBeGreaterThanOrEqual(1);
    const left = await db.select({ challenge: schema.passkeyChallenges.challenge }).from(schema.passkeyChallenges);
    expect(left.map((row) => row.challenge)).toContain(live);
    expect(left.map((row) => row.challenge)).not.toContain(expired);
  });

  it("hands out sign-in challenges without writing or counting anything (the sign-in page asks on every view)", async () => {
    const ip = uniqueIp();
    const before = await db.select({ challenge: schema.passkeyChallenges.challenge }).from(schema.passkeyChallenges);
    const burst = await Promise.all(
      Array.from({ length: 60 }, () => SELF.fetch(`${ORIGIN}/auth/passkey/options`, { method: "POST", headers: { Origin: ORIGIN, "CF-Connecting-IP": ip } })),
    );
    expect(burst.map((r) => r.status)).toEqual(Array.from({ length: 60 }, () => 200));
    const challenges = await Promise.all(burst.map(async (r) => ((await r.json()) as { options: { challenge: string } }).options.challenge));
    expect(new Set(challenges).size).toBe(60);
    expect(await db.select({ challenge: schema.passkeyChallenges.challenge }).from(schema.passkeyChallenges)).toHaveLength(before.length);
    expect(await db.query.attemptCounters.findFirst({ where: eq(schema.attemptCounters.key, `passkey:signin:ip:${ip}`) })).toBeUndefined();
    // Another site cannot ask for one with a visitor's browser.
    const crossSite = await SELF.fetch(`${ORIGIN}/auth/passkey/options`, { method: "POST", headers: { Origin: "https://evil.example" } });
    expect(crossSite.status).toBe(403);
  });

  it(`caps sign-in answers per IP: ${PASSKEY.signInAnswersPerIp.limit} of a parallel burst are checked, then 429 with Retry-After`, async () => {
    const { passkey } = await userWithPasskey();
    const ip = uniqueIp();
    const answers = await Promise.all(Array.from({ length: PASSKEY.signInAnswersPerIp.limit + 10 }, async () => passkey.authenticate(await signInOptions())));
    const burst = await Promise.all(
      answers.map((answer) =>
        SELF.fetch(`${ORIGIN}/auth/passkey/verify`, {
          method: "POST",
          body: JSON.stringify({ response: answer }),
          headers: { Origin: ORIGIN, "Content-Type": "application/json", "CF-Connecting-IP": ip },
        }),
      ),
    );
    const refused = burst.filter((r) => r.status === 429);
    expect(refused).toHaveLength(10);
    expect(Number(refused[0]!.headers.get("Retry-After"))).toBeGreaterThan(0);
    // A challenge we did not sign is refused before it is counted, so made-up ones spend nothing.
    const forged = await passkey.authenticate({ ...(await signInOptions()), challenge: "bm90LW91cnMtYXQtYWxsLW5vdC1vdXJzLWF0LWFsbA" });
    expect((await verify(forged)).response.status).toBe(400);
  });

  it(`caps registration challenges per account: ${PASSKEY.registerOptionsPerUser.limit} of a parallel burst`, async () => {
    const { browser } = await createConfirmedUser();
    const burst = await Promise.all(
      Array.from({ length: PASSKEY.registerOptionsPerUser.limit + 5 }, () => browser.post(PROFILE_ROUTE, { intent: "options" }, JSON_ACCEPT)),
    );
    expect(burst.filter((r) => r.status === 200)).toHaveLength(PASSKEY.registerOptionsPerUser.limit);
    expect(burst.filter((r) => r.status === 429)).toHaveLength(5);
  });
});
