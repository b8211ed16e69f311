// The account flows tried as an attacker and as a crowd: parallel bursts against the lockouts,
// the same address signed up twice, enumeration through answers, headers, database work and time.
import { SELF } from "cloudflare:test";
import { eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { IP_GUARD, LOCKOUT, MAIL_CAP } from "~/lib/constants";
import { AUTH_MESSAGES as M } from "~/lib/auth/messages";
import { schema } from "~/lib/db.server";
import { Browser, createConfirmedUser, db, linkPath, ORIGIN, queueSettled, signUpFields, STRONG_PASSWORD, uniqueEmail, uniqueIp, waitForMail } from "./helpers";
import { measured } from "./log-lines";

function tokenRequest(email: string, password: string, ip = uniqueIp()) {
  return SELF.fetch(`${ORIGIN}/api/v1/auth/token`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "CF-Connecting-IP": ip },
    body: JSON.stringify({ email, password }),
  });
}

async function errorOf(response: Response) {
  return ((await response.json()) as { error?: string }).error ?? "";
}

function histogram(values: Array<string | number>) {
  const out: Record<string, number> = {};
  for (const v of values) out[v] = (out[v] ?? 0) + 1;
  return out;
}

async function inBatches<T>(count: number, size: number, run: (index: number) => Promise<T>): Promise<T[]> {
  const results: T[] = [];
  for (let start = 0; start < count; start += size) {
    results.push(...(await Promise.all(Array.from({ length: Math.min(size, count - start) }, (_, i) => run(start + i)))));
  }
  return results;
}

describe("lockouts count atomically under parallel requests", () => {
  it("checks at most 5 of 40 wrong passwords sent 20 at a time, and locks the account", async () => {
    const { email } = await createConfirmedUser();
    const responses = await inBatches(40, 20, (i) => tokenRequest(email, `Wrong-Pass-${i}`));
    const outcomes = await Promise.all(responses.map(async (r) => `${r.status} ${await errorOf(r)}`));
    const counts = histogram(outcomes);
    // Exactly maxFailures + 1 attempts were checked: four "invalid", then the one that locked.
    expect(counts[`401 ${M.invalidCredentials}`]).toBe(LOCKOUT.signIn.maxFailures);
    expect(counts[`429 ${M.signInLocked}`]).toBe(1);
    const refused = outcomes.filter((o) => /^429 Too many attempts\. Please wait \d+ seconds/.test(o));
    expect(refused).toHaveLength(40 - LOCKOUT.signIn.maxFailures - 1);
    expect((await tokenRequest(email, STRONG_PASSWORD)).status).toBe(429);
  });

  it("gives no tokens to the right password sent as attempt 29 of a 31-request burst", async () => {
    const { email } = await createConfirmedUser();
    const responses = await Promise.all(Array.from({ length: 31 }, (_, i) => tokenRequest(email, i === 28 ? STRONG_PASSWORD : `Wrong-Pass-${i}`)));
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 200).length + statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(LOCKOUT.signIn.maxFailures + 1);
    // Whichever attempts were checked, at most five were, and the rest were refused unchecked.
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(31 - LOCKOUT.signIn.maxFailures - 1);
    if (statuses[28] === 200) {
      // The right password won a reservation: then it was among the first five checked.
      expect(statuses.filter((s) => s !== 429)).toHaveLength(LOCKOUT.signIn.maxFailures + 1);
    }
    expect(statuses.filter((s) => s === 200).length).toBeLessThanOrEqual(1);
  });

  it("refuses the right password of a 31-request burst once the first five were wrong", async () => {
    const { email } = await createConfirmedUser();
    const wrong = await Promise.all(Array.from({ length: 5 }, (_, i) => tokenRequest(email, `Wrong-Pass-${i}`)));
    expect(wrong.map((r) => r.status).sort()).toEqual([401, 401, 401, 401, 429]);
    const burst = await Promise.all(Array.from({ length: 26 }, (_, i) => tokenRequest(email, i === 23 ? STRONG_PASSWORD : `Wrong-Pass-${i}`)));
    expect(burst.every((r) => r.status === 429)).toBe(true);
    expect(await errorOf(burst[23]!)).toMatch(/Please wait \d+ seconds/);
  });

  it("counts parallel sign-in forms the same way", async () => {
    const { email } = await createConfirmedUser();
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => new Browser().post("/auth?mode=signin", { intent: "signin", email, password: "Wrong-Pass-1" })),
    );
    const statuses = histogram(responses.map((r) => r.status));
    expect(statuses[401]).toBe(LOCKOUT.signIn.maxFailures);
    expect(statuses[429]).toBe(20 - LOCKOUT.signIn.maxFailures);
  });

  it("locks sign-up of an address after 3 parallel invalid forms and refuses the rest unchecked", async () => {
    const email = uniqueEmail("signup-burst");
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => new Browser().post("/auth?mode=signup", signUpFields(email, { securityAnswer: "x" }))),
    );
    const texts = await Promise.all(responses.map((r) => r.text()));
    expect(responses.filter((r) => r.status === 400)).toHaveLength(LOCKOUT.signUp.maxFailures);
    expect(texts.filter((t) => t.includes(M.signUpLocked))).toHaveLength(1);
    expect(texts.filter((t) => /Too many attempts\. Please wait \d+ seconds/.test(t))).toHaveLength(20 - LOCKOUT.signUp.maxFailures - 1);
    const valid = await new Browser().post("/auth?mode=signup", signUpFields(email));
    expect(valid.status).toBe(429);
  });
});

describe("one person's typos do not lock out everyone behind the same IP", () => {
  it("lets the right password of another account through after five failures from the address", async () => {
    const ip = uniqueIp();
    const office = new Browser(ip);
    for (let i = 0; i < 5; i++) {
      const r = await office.post("/auth?mode=signin", { intent: "signin", email: uniqueEmail("typo"), password: "Wrong-Pass-1" });
      expect(r.status).toBe(401);
    }
    const { email } = await createConfirmedUser();
    const colleague = await new Browser(ip).post("/auth?mode=signin", { intent: "signin", email, password: STRONG_PASSWORD });
    expect(colleague.status).toBe(200);
  });

  it("slows an address down after tens of failures but still accepts a correct password", async () => {
    const ip = uniqueIp();
    await inBatches(IP_GUARD.signIn.failures, 10, (i) => tokenRequest(uniqueEmail(`spray-${i}`), "Guess-Pass-1", ip));
    const started = Date.now();
    const guess = await tokenRequest(uniqueEmail("spray"), "Guess-Pass-1", ip);
    expect(Date.now() - started).toBeGreaterThanOrEqual(IP_GUARD.signIn.delayMs - 50);
    expect(guess.status).toBe(429);
    expect(await errorOf(guess)).toBe(M.tooManySignInRequests);

    const { email } = await createConfirmedUser();
    const rightPassword = await tokenRequest(email, STRONG_PASSWORD, ip);
    expect(rightPassword.status).toBe(200);
    // From another address nothing is slowed down.
    const elsewhereStarted = Date.now();
    expect((await tokenRequest(uniqueEmail("spray"), "Guess-Pass-1")).status).toBe(401);
    expect(Date.now() - elsewhereStarted).toBeLessThan(IP_GUARD.signIn.delayMs);
  });

  it("accepts a valid sign-up from an address whose other sign-ups were invalid", async () => {
    const ip = uniqueIp();
    for (let i = 0; i < 4; i++) {
      expect((await new Browser(ip).post("/auth?mode=signup", signUpFields(uniqueEmail(), { securityAnswer: "x" }))).status).toBe(400);
    }
    const email = uniqueEmail("after-typos");
    const valid = await new Browser(ip).post("/auth?mode=signup", signUpFields(email));
    expect(valid.status).toBe(200);
    await waitForMail(email, /Confirm your Modelify account/);
  });
});

describe("account pre-hijacking", () => {
  it("gives the address to the latest sign-up: the earlier registrant's password and links stop working", async () => {
    const email = uniqueEmail("victim");
    const attacker = new Browser();
    await attacker.post("/auth?mode=signup", signUpFields(email, { password: "Attacker-Pass-1", confirmPassword: "Attacker-Pass-1", firstName: "Mallory" }));
    const attackerMail = await waitForMail(email, /Confirm your Modelify account/);

    const victim = new Browser();
    const after = Date.now();
    await victim.post("/auth?mode=signup", signUpFields(email));
    const victimMail = await waitForMail(email, /Confirm your Modelify account/, { after });
    expect(victimMail.links[0]).not.toBe(attackerMail.links[0]);

    // The first link died with its credentials.
    const stale = await attacker.get(linkPath(attackerMail.links[0]!));
    expect(await stale.text()).toContain("This confirmation link is invalid or has expired");

    // She confirms from her inbox in her browser and lands on her dashboard.
    const path = linkPath(victimMail.links[0]!);
    const page = await victim.get(path);
    expect(await page.text()).toContain("Completing Authentication...");
    const confirm = await victim.post(path, { token: new URL(victimMail.links[0]!).searchParams.get("token")! });
    expect(confirm.headers.get("Location")).toBe("/dashboard");
    expect(await (await victim.get("/dashboard")).text()).toContain("Ada Lovelace");

    // Afterwards only her password works.
    expect((await tokenRequest(email, "Attacker-Pass-1")).status).toBe(401);
    expect((await tokenRequest(email, STRONG_PASSWORD)).status).toBe(200);
  });

  it("asks for the password when the link is opened in another browser, so a pre-registrant's link cannot confirm", async () => {
    const email = uniqueEmail("victim2");
    const victim = new Browser();
    await victim.post("/auth?mode=signup", signUpFields(email));
    await waitForMail(email, /Confirm your Modelify account/);
    // The attacker signs up after her: the newest mail in her inbox carries the attacker's credentials.
    const after = Date.now();
    await new Browser().post("/auth?mode=signup", signUpFields(email, { password: "Attacker-Pass-1", confirmPassword: "Attacker-Pass-1" }));
    const latest = await waitForMail(email, /Confirm your Modelify account/, { after });
    const path = linkPath(latest.links[0]!);
    const token = new URL(latest.links[0]!).searchParams.get("token")!;

    // Opened in her browser, the link was not made for it: it asks for the password.
    const page = await victim.get(path);
    expect(await page.text()).toContain(M.confirmWithPassword);
    const oneClick = await victim.post(path, { token });
    expect(oneClick.status).toBe(400);
    const hers = await victim.post(path, { token, password: STRONG_PASSWORD });
    expect(await hers.text()).toContain(M.confirmPasswordMismatch);
    const user = await db.query.users.findFirst({ where: eq(schema.users.email, email) });
    expect(user?.emailConfirmedAt).toBeNull();

    // Whoever knows the latest password can confirm from any browser.
    const withPassword = await new Browser().post(path, { token, password: "Attacker-Pass-1" });
    expect(withPassword.status).toBe(302);
  });
});

describe("who has an account does not leak", () => {
  const comparable = (response: Response) => {
    const headers = [...response.headers]
      .filter(([name]) => name !== "date")
      // Per-response randomness (the CSP nonce, the proof cookie's value, the request id) is the same for everyone.
      .map(([name, value]) => [name, value.replace(/mfy_signup_proof=[^;]+/, "mfy_signup_proof=…").replace(/'nonce-[^']+'/, "'nonce-…'")])
      .map(([name, value]) => [name, name === "x-request-id" && /^[0-9a-f-]{36}$/.test(value!) ? "…" : value]);
    return { status: response.status, headers };
  };
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

  async function compare(known: string, unknown: string, send: (email: string) => Promise<Response>) {
    const times = { known: [] as number[], unknown: [] as number[] };
    type Seen = { shape: unknown; body: string; statements: number };
    const first: Partial<Record<"known" | "unknown", Seen>> = {};
    // In pairs, each pair in the other order from the one before, so neither side always runs
    // second (after the first's cache, or into the machine's next slow moment).
    for (let i = 0; i < 16; i++) {
      for (const kind of i % 2 === 0 ? (["known", "unknown"] as const) : (["unknown", "known"] as const)) {
        const started = performance.now();
        const { response, d1Statements } = await measured(() => send(kind === "known" ? known : unknown));
        const body = await response.text();
        times[kind].push(performance.now() - started);
        first[kind] ??= { shape: comparable(response), body, statements: d1Statements };
      }
    }
    expect(first.known!.shape).toEqual(first.unknown!.shape);
    const unnonced = (html: string) => html.replace(/nonce="[^"]+"/g, 'nonce="…"');
    expect(unnonced(first.known!.body)).toBe(unnonced(first.unknown!.body));
    expect(first.known!.statements).toBeGreaterThan(0);
    expect(first.known!.statements).toBe(first.unknown!.statements);
    // Same work is already proven by the statement counts above; time is the backstop. A quarter of
    // the time, but never less than 5 ms: on a loaded machine a few-ms request jitters by more
    // than that, while any real difference (a password hash, a lookup and a mail) is far larger.
    // Each pair's difference, not two medians: a slow stretch of the machine slows both of a pair.
    const difference = median(times.known.map((k, i) => k - times.unknown[i]!));
    const u = median(times.unknown);
    expect(Math.abs(difference), `known − unknown: median ${difference.toFixed(1)} ms of pairs, unknown ${u.toFixed(1)} ms`).toBeLessThan(
      Math.max(0.25 * u, 5),
    );
  }

  it("answers forgot-password for a known and an unknown address alike", async () => {
    const { email } = await createConfirmedUser();
    await compare(email, uniqueEmail("nobody"), (address) => new Browser().post("/auth?mode=forgot-password", { intent: "forgot-password", email: address }));
  });

  it("answers sign-up for a known and an unknown address alike", async () => {
    const { email } = await createConfirmedUser();
    await compare(email, uniqueEmail("nobody"), (address) => new Browser().post("/auth?mode=signup", signUpFields(address)));
  });
});

describe("mail-sending requests are capped per address", () => {
  it("sends at most the hourly cap from one IP, with the same answer for every request", async () => {
    const ip = uniqueIp();
    const emails = Array.from({ length: MAIL_CAP.perIp.limit + 5 }, () => uniqueEmail("bulk"));
    const responses = await Promise.all(emails.map((email) => new Browser(ip).post("/auth?mode=signup", signUpFields(email))));
    const bodies = await Promise.all(responses.map((r) => r.text()));
    expect(new Set(responses.map((r) => r.status))).toEqual(new Set([200]));
    expect(bodies.every((b) => b.includes(M.signUpSuccess))).toBe(true);
    await queueSettled();
    const created = (await db.select({ id: schema.users.id }).from(schema.users).where(inArray(schema.users.email, emails))).length;
    expect(created).toBe(MAIL_CAP.perIp.limit);
  });
});
