// Phone verification by SMS code, through the whole Worker: the route, the queue, the consumer's
// SMS port and the outbox; the limits under parallel requests; /verify-phone's link form.
import { createExecutionContext, createMessageBatch, env, getQueueResult, SELF } from "cloudflare:test";
import { and, desc, eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { handlers as worker } from "../worker";
import { PHONE_CODE } from "~/lib/constants";
import { schema } from "~/lib/db.server";
import { phoneCodeKey } from "~/lib/phone/codes.server";
import { deliverSms } from "~/lib/phone/sms.server";
import { PHONE_MESSAGES } from "~/lib/profile/messages";
import type { SmsMessage } from "~/lib/queue";
import { parseConsumerEnv } from "../../workers/consumer-env";
import { Browser, createConfirmedUser, db, ORIGIN, queueSettled, uniqueEmail } from "./helpers";

const ROUTE = "/dashboard/profile/phone";
const JSON_ACCEPT = { Accept: "application/json" };
const TTL_MS = PHONE_CODE.ttlSeconds * 1000;

let numberCounter = 0;
/** A number no other test uses, so the per-number send cap of one test never reaches another. */
function uniquePhone() {
  numberCounter++;
  const digits = String((Date.now() * 37 + numberCounter * 7919 + Math.floor(Math.random() * 1e6)) % 1e8).padStart(8, "0");
  return `+155${digits}`;
}

type PhoneAnswer = { ok: boolean; state?: string; phone?: string; expiresAt?: number; expiresIn?: number; error?: string; reason?: string };

async function userWithPhone(phone: string | null = uniquePhone()) {
  const { browser, email } = await createConfirmedUser(uniqueEmail("phone"));
  const user = await db.query.users.findFirst({ where: eq(schema.users.email, email) });
  await db.update(schema.userProfiles).set({ phoneNumber: phone }).where(eq(schema.userProfiles.userId, user!.id));
  return { browser, email, userId: user!.id, phone };
}

async function call(browser: Browser, fields: Record<string, string>) {
  const response = await browser.post(ROUTE, fields, JSON_ACCEPT);
  return { status: response.status, body: await response.json<PhoneAnswer>() };
}

const send = (browser: Browser) => call(browser, { intent: "send" });
const verify = (browser: Browser, code: string) => call(browser, { intent: "verify", code });

async function smsTo(phone: string) {
  return db
    .select()
    .from(schema.outbox)
    .where(and(eq(schema.outbox.to, phone), eq(schema.outbox.channel, "sms")))
    .orderBy(desc(schema.outbox.createdAt));
}

/** Waits until `count` text messages to `phone` are in the outbox (they arrive through the real queue). */
async function waitForSms(phone: string, count = 1, timeoutMs = 8000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const rows = await smsTo(phone);
    if (rows.length >= count) return rows;
    if (Date.now() > deadline) throw new Error(`${rows.length} of ${count} SMS to ${phone} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Waits until the queue is quiet (nothing more is on its way), then counts. */
async function settledSmsCount(phone: string) {
  await queueSettled();
  return (await smsTo(phone)).length;
}

const codeOf = (text: string) => /code is (\d{6})\b/.exec(text)?.[1] ?? "";
const wrongCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, "0");

async function sendAndRead(browser: Browser, phone: string) {
  const sent = await send(browser);
  expect(sent.status, JSON.stringify(sent.body)).toBe(200);
  const [sms] = await waitForSms(phone);
  return { sent: sent.body, sms: sms!, code: codeOf(sms!.text) };
}

async function profileOf(userId: string) {
  return (await db.query.userProfiles.findFirst({ where: eq(schema.userProfiles.userId, userId) }))!;
}

describe("sending a code", () => {
  it("texts a 6-digit code and its link to the profile's number and marks the code pending", async () => {
    const { browser, userId, phone } = await userWithPhone();
    const before = Date.now();
    const { sent, sms, code } = await sendAndRead(browser, phone!);
    expect(sent).toMatchObject({ ok: true, state: "verifying", phone });
    expect(sent.expiresAt).toBeGreaterThanOrEqual(before + TTL_MS);
    expect(sent.expiresAt).toBeLessThanOrEqual(Date.now() + TTL_MS);
    expect(sent.expiresIn).toBeGreaterThan(PHONE_CODE.ttlSeconds - 10);
    expect(code).toMatch(/^\d{6}$/);
    expect(sms.subject).toBe(`SMS to ${phone}`);
    const link = `${ORIGIN}/verify-phone?code=${code}&phone=${encodeURIComponent(phone!)}`;
    expect(sms.links).toEqual([link]);
    expect(sms.text).toContain(link);
    expect((await profileOf(userId)).phoneCodeSentAt).toBeGreaterThanOrEqual(before);
    // Stored hashed: the code itself is nowhere in KV.
    const stored = await env.KV.get(phoneCodeKey(userId));
    expect(stored).toBeTruthy();
    expect(stored).not.toContain(code);
    expect(JSON.parse(stored!)).toMatchObject({ phone, expiresAt: sent.expiresAt });
  });

  it("gives a number without + the +1 prefix", async () => {
    const local = uniquePhone().slice(2); // ten digits, no country code
    const { browser } = await userWithPhone(`(${local.slice(0, 3)}) ${local.slice(3, 6)}-${local.slice(6)}`);
    const { sent, sms } = await sendAndRead(browser, `+1${local}`);
    expect(sent.phone).toBe(`+1${local}`);
    expect(sms.to).toBe(`+1${local}`);
  });

  it("answers No phone number found for user when the profile has none, and sends nothing", async () => {
    const { browser, userId } = await userWithPhone(null);
    const sent = await send(browser);
    expect(sent).toEqual({ status: 400, body: { ok: false, reason: "no-phone", error: PHONE_MESSAGES.noPhone } });
    expect((await profileOf(userId)).phoneCodeSentAt).toBeNull();
  });

  it("refuses a number that cannot be texted, without sending", async () => {
    const { browser, userId } = await userWithPhone("+0123456789");
    const sent = await send(browser);
    expect(sent.status).toBe(400);
    expect(sent.body.error).toBe(PHONE_MESSAGES.invalidNumber);
    expect((await profileOf(userId)).phoneCodeSentAt).toBeNull();
  });

  it("does not send a second code while one is live: it answers the live code's expiry", async () => {
    const { browser, phone } = await userWithPhone();
    const { sent } = await sendAndRead(browser, phone!);
    const again = await send(browser);
    expect(again).toMatchObject({ status: 200, body: { ok: true, state: "verifying", expiresAt: sent.expiresAt } });
    expect(await settledSmsCount(phone!)).toBe(1);
  });

  it("sends one code for a burst of parallel opens", async () => {
    const { browser, phone } = await userWithPhone();
    const answers = await Promise.all(Array.from({ length: 10 }, () => send(browser)));
    expect(answers.every((a) => a.status === 200 && a.body.state === "verifying")).toBe(true);
    expect(await settledSmsCount(phone!)).toBe(1);
  });

  it("sends a new code once the old one has expired", async () => {
    const { browser, userId, phone } = await userWithPhone();
    const { code } = await sendAndRead(browser, phone!);
    await expireCode(userId);
    const again = await send(browser);
    expect(again.body.state).toBe("verifying");
    const rows = await waitForSms(phone!, 2);
    expect(codeOf(rows[0]!.text)).toMatch(/^\d{6}$/);
    // The old code is gone with its KV entry.
    expect((await verify(browser, code)).status).toBe(400);
    expect((await verify(browser, codeOf(rows[0]!.text))).body.state).toBe("verified");
  });

  it("caps sends per user: the sixth code within the hour is refused with the wait", async () => {
    const { browser, userId, phone } = await userWithPhone();
    for (let i = 0; i < PHONE_CODE.sendsPerUser.limit; i++) {
      const sent = await send(browser);
      expect(sent.body.state, `send ${i + 1}`).toBe("verifying");
      await expireCode(userId);
    }
    const refused = await send(browser);
    expect(refused.status).toBe(429);
    expect(refused.body.error).toBe(PHONE_MESSAGES.tooManySends(60));
    // A refused send leaves nothing pending.
    expect((await profileOf(userId)).phoneCodeSentAt).toBeLessThan(Date.now() - TTL_MS);
    expect(await settledSmsCount(phone!)).toBe(PHONE_CODE.sendsPerUser.limit);
  });

  it("caps sends per number across accounts, under a parallel burst", async () => {
    const phone = uniquePhone();
    const users = await Promise.all(Array.from({ length: PHONE_CODE.sendsPerNumber.limit + 3 }, () => userWithPhone(phone)));
    const answers = await Promise.all(users.map((u) => send(u.browser)));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(PHONE_CODE.sendsPerNumber.limit);
    const refused = answers.filter((a) => a.status === 429);
    expect(refused).toHaveLength(3);
    expect(refused[0]!.body.error).toMatch(/^Too many codes sent\. Please try again in \d+ minutes?\.$/);
    expect(await settledSmsCount(phone)).toBe(PHONE_CODE.sendsPerNumber.limit);
  });
});

/** Makes the user's code and its send time look 15 minutes old. */
async function expireCode(userId: string) {
  const raw = await env.KV.get(phoneCodeKey(userId));
  if (raw) {
    const stored = JSON.parse(raw) as { expiresAt: number; sentAt: number };
    await env.KV.put(phoneCodeKey(userId), JSON.stringify({ ...stored, expiresAt: Date.now() - 1000 }));
  }
  await db
    .update(schema.userProfiles)
    .set({ phoneCodeSentAt: Date.now() - TTL_MS - 1000 })
    .where(eq(schema.userProfiles.userId, userId));
}

describe("checking a code", () => {
  it("verifies the profile with the right code and ends the code", async () => {
    const { browser, userId, phone } = await userWithPhone();
    const { code } = await sendAndRead(browser, phone!);
    const checked = await verify(browser, code);
    expect(checked).toEqual({ status: 200, body: { ok: true, state: "verified", phone } });
    const profile = await profileOf(userId);
    expect(profile.phoneVerified).toBe(true);
    expect(profile.phoneCodeSentAt).toBeNull();
    expect(await env.KV.get(phoneCodeKey(userId))).toBeNull();
    // Opening the dialog again sends nothing: the number is verified.
    expect((await send(browser)).body).toEqual({ ok: true, state: "verified", phone });
    expect(await settledSmsCount(phone!)).toBe(1);
  });

  it("refuses a wrong code and keeps the right one usable", async () => {
    const { browser, userId, phone } = await userWithPhone();
    const { code } = await sendAndRead(browser, phone!);
    expect(await verify(browser, wrongCode(code))).toEqual({
      status: 400,
      body: { ok: false, reason: "invalid-code", error: PHONE_MESSAGES.invalidCode },
    });
    expect((await profileOf(userId)).phoneVerified).toBe(false);
    expect((await verify(browser, code)).body.state).toBe("verified");
  });

  it("refuses codes that are not six digits without using up a check", async () => {
    const { browser, phone } = await userWithPhone();
    const { code } = await sendAndRead(browser, phone!);
    for (const bad of ["", "12345", "1234567", "abcdef", "12 34 5", "１２３４５６", "123456\u0000"]) {
      const answer = await verify(browser, bad);
      expect(answer.status, bad).toBe(400);
      expect(answer.body.error).toBe(PHONE_MESSAGES.invalidCode);
    }
    for (let i = 0; i < PHONE_CODE.maxWrongAttempts - 1; i++) await verify(browser, wrongCode(code));
    // Spaces are forgiven (a code typed without JavaScript).
    expect((await verify(browser, `${code.slice(0, 3)} ${code.slice(3)}`)).body.state).toBe("verified");
  });

  it("refuses an expired code, checked on the server even while KV still holds it", async () => {
    const { browser, userId, phone } = await userWithPhone();
    const { code } = await sendAndRead(browser, phone!);
    const stored = JSON.parse((await env.KV.get(phoneCodeKey(userId)))!) as Record<string, unknown>;
    await env.KV.put(phoneCodeKey(userId), JSON.stringify({ ...stored, expiresAt: Date.now() - 1 }));
    expect(await verify(browser, code)).toEqual({ status: 400, body: { ok: false, reason: "expired", error: PHONE_MESSAGES.expired } });
    const profile = await profileOf(userId);
    expect(profile.phoneVerified).toBe(false);
    // The expired code no longer holds the resend back.
    expect(profile.phoneCodeSentAt).toBeNull();
  });

  it("uses a code once", async () => {
    const { browser, userId, phone } = await userWithPhone();
    const { code } = await sendAndRead(browser, phone!);
    expect((await verify(browser, code)).status).toBe(200);
    await db.update(schema.userProfiles).set({ phoneVerified: false }).where(eq(schema.userProfiles.userId, userId));
    const reused = await verify(browser, code);
    expect(reused.status).toBe(400);
    expect((await profileOf(userId)).phoneVerified).toBe(false);
  });

  it("lets exactly one of two parallel submissions of the right code succeed", async () => {
    const { browser, phone } = await userWithPhone();
    const { code } = await sendAndRead(browser, phone!);
    const answers = await Promise.all([verify(browser, code), verify(browser, code), verify(browser, code)]);
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status !== 200).every((a) => a.status >= 400 && a.status < 500)).toBe(true);
  });

  it("refuses a code sent to another number than the profile's current one", async () => {
    const { browser, userId, phone } = await userWithPhone();
    const { code } = await sendAndRead(browser, phone!);
    await db.update(schema.userProfiles).set({ phoneNumber: uniquePhone() }).where(eq(schema.userProfiles.userId, userId));
    expect(await verify(browser, code)).toEqual({ status: 400, body: { ok: false, reason: "mismatch", error: PHONE_MESSAGES.phoneMismatch } });
    expect((await profileOf(userId)).phoneVerified).toBe(false);
  });

  it("ends a code on the fifth wrong entry: even the right code fails afterwards", async () => {
    const { browser, userId, phone } = await userWithPhone();
    const { code } = await sendAndRead(browser, phone!);
    for (let i = 1; i < PHONE_CODE.maxWrongAttempts; i++) {
      expect((await verify(browser, wrongCode(code))).body.error, `wrong ${i}`).toBe(PHONE_MESSAGES.invalidCode);
    }
    expect(await verify(browser, wrongCode(code))).toEqual({
      status: 400,
      body: { ok: false, reason: "code-ended", error: PHONE_MESSAGES.tooManyAttempts },
    });
    const right = await verify(browser, code);
    expect(right.status).toBeGreaterThanOrEqual(400);
    expect(right.body.ok).toBe(false);
    const profile = await profileOf(userId);
    expect(profile.phoneVerified).toBe(false);
    // The ended code no longer holds the resend back: a new code can be sent at once.
    expect(profile.phoneCodeSentAt).toBeNull();
    expect((await send(browser)).body.state).toBe("verifying");
    const rows = await waitForSms(phone!, 2);
    expect((await verify(browser, codeOf(rows[0]!.text))).body.state).toBe("verified");
  });

  it("checks exactly five of twenty parallel wrong codes", async () => {
    const { browser, userId, phone } = await userWithPhone();
    const { code } = await sendAndRead(browser, phone!);
    const guesses = Array.from({ length: 20 }, (_, i) => String((Number(code) + 1 + i) % 1_000_000).padStart(6, "0"));
    const answers = await Promise.all(guesses.map((g) => verify(browser, g)));
    const checked = answers.filter((a) => a.body.reason === "invalid-code" || a.body.reason === "code-ended");
    expect(checked).toHaveLength(PHONE_CODE.maxWrongAttempts);
    expect(checked.filter((a) => a.body.reason === "code-ended")).toHaveLength(1);
    // The rest were refused before checking (or found the code already gone).
    for (const a of answers.filter((x) => !checked.includes(x))) expect(["too-many-attempts", "expired"]).toContain(a.body.reason);
    expect(answers.every((a) => a.status >= 400 && a.status < 500)).toBe(true);
    expect(await verify(browser, code)).toMatchObject({ body: { ok: false } });
    expect((await profileOf(userId)).phoneVerified).toBe(false);
  });

  it("does not let another account verify with someone's code, nor spend its checks", async () => {
    const owner = await userWithPhone();
    const { code } = await sendAndRead(owner.browser, owner.phone!);
    const other = await userWithPhone(owner.phone);
    for (let i = 0; i < PHONE_CODE.maxWrongAttempts + 2; i++) {
      const answer = await verify(other.browser, code);
      expect(answer.body.ok).toBe(false);
    }
    expect((await profileOf(other.userId)).phoneVerified).toBe(false);
    expect((await verify(owner.browser, code)).body.state).toBe("verified");
  });
});

describe("the route", () => {
  it("answers 401 to a signed-out fetch and sends a signed-out form to /auth", async () => {
    const anonymous = new Browser();
    expect(await call(anonymous, { intent: "send" })).toEqual({
      status: 401,
      body: { ok: false, reason: "not-authenticated", error: PHONE_MESSAGES.notAuthenticated },
    });
    const form = await anonymous.post(ROUTE, { intent: "send" });
    expect(form.status).toBe(303);
    expect(form.headers.get("Location")).toBe("/auth");
  });

  it("refuses a cross-site post", async () => {
    const { browser, userId } = await userWithPhone();
    const response = await browser.post(ROUTE, { intent: "send" }, { ...JSON_ACCEPT, Origin: "https://evil.example" });
    expect(response.status).toBe(403);
    expect((await profileOf(userId)).phoneCodeSentAt).toBeNull();
  });

  it("takes POST only", async () => {
    const { browser } = await userWithPhone();
    expect((await browser.get(ROUTE)).status).toBe(405);
  });

  it("answers garbage bodies and unknown intents with a 4xx and sends nothing", async () => {
    const { browser, userId } = await userWithPhone();
    const cases: Array<[BodyInit | null, string]> = [
      [JSON.stringify({ intent: "send" }), "application/json"],
      ["intent=send", "text/plain"],
      [null, "application/x-www-form-urlencoded"],
      [`intent=send&pad=${"x".repeat(64 * 1024)}`, "application/x-www-form-urlencoded"],
      ["--x\r\nbroken", "multipart/form-data; boundary=y"],
      ["intent=delete-everything", "application/x-www-form-urlencoded"],
      ["intent=send&intent=verify", "application/x-www-form-urlencoded"],
      ["intent=", "application/x-www-form-urlencoded"],
      ["intent=verify", "application/x-www-form-urlencoded"],
      [`intent=verify&code=${"9".repeat(5000)}`, "application/x-www-form-urlencoded"],
    ];
    for (const [body, type] of cases) {
      const response = await rawPost(browser, body, { "Content-Type": type, ...JSON_ACCEPT });
      const text = await response.text();
      expect(response.status, `${type} ${String(body).slice(0, 40)}: ${text}`).toBeGreaterThanOrEqual(400);
      expect(response.status).toBeLessThan(500);
      expect(JSON.parse(text)).toMatchObject({ ok: false });
    }
    expect((await profileOf(userId)).phoneCodeSentAt).toBeNull();
  });

  it("works without JavaScript: every answer is a redirect back to the dialog with the outcome", async () => {
    const { browser, userId, phone } = await userWithPhone();
    const sent = await browser.post(ROUTE, { intent: "send" });
    expect(sent.status).toBe(303);
    expect(sent.headers.get("Location")).toBe("/dashboard/profile?phone=verify");
    const [sms] = await waitForSms(phone!);
    const code = codeOf(sms!.text);
    const wrong = await browser.post(ROUTE, { intent: "verify", code: wrongCode(code) });
    expect(wrong.headers.get("Location")).toBe("/dashboard/profile?phone=verify&phoneError=invalid-code");
    const right = await browser.post(ROUTE, { intent: "verify", code });
    expect(right.status).toBe(303);
    expect(right.headers.get("Location")).toBe("/dashboard/profile?phone=verify&phoneResult=verified");
    expect((await profileOf(userId)).phoneVerified).toBe(true);
  });

  it("carries the wait of a send limit in the redirect", async () => {
    const { browser, userId } = await userWithPhone();
    for (let i = 0; i < PHONE_CODE.sendsPerUser.limit; i++) {
      await send(browser);
      await expireCode(userId);
    }
    const refused = await browser.post(ROUTE, { intent: "send" });
    expect(refused.headers.get("Location")).toBe("/dashboard/profile?phone=verify&phoneError=too-many-sends&phoneWait=60");
  });
});

function rawPost(browser: Browser, body: BodyInit | null, headers: Record<string, string>) {
  return fetchSite(ROUTE, { method: "POST", body, headers: { Cookie: browser.cookieHeader(), Origin: ORIGIN, "CF-Connecting-IP": browser.ip, ...headers } });
}

function fetchSite(path: string, init: RequestInit) {
  return SELF.fetch(`${ORIGIN}${path}`, { redirect: "manual", ...init });
}

describe("the verification link (/verify-phone)", () => {
  const linkPath = (code: string, phone: string) => `/verify-phone?code=${code}&phone=${encodeURIComponent(phone)}`;

  it("verifies with the link's code and number after posting them back", async () => {
    const { browser, userId, phone } = await userWithPhone();
    const { sms, code } = await sendAndRead(browser, phone!);
    const path = linkPath(code, phone!);
    expect(sms.links[0]).toBe(`${ORIGIN}${path}`);
    const page = await browser.get(path);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("Verifying Phone Number");
    // Opening the link alone changes nothing.
    expect((await profileOf(userId)).phoneVerified).toBe(false);
    const posted = await browser.post(path, { code, phone: phone! });
    expect(posted.status).toBe(200);
    const result = await posted.text();
    expect(result).toContain("Phone Verified!");
    expect(result).toContain(PHONE_MESSAGES.verified);
    expect(result).toContain("Go to Dashboard");
    expect((await profileOf(userId)).phoneVerified).toBe(true);
  });

  it("keeps an unencoded + in the link's number", async () => {
    const { browser, userId, phone } = await userWithPhone();
    const { code } = await sendAndRead(browser, phone!);
    const page = await browser.get(`/verify-phone?code=${code}&phone=${phone}`);
    expect(await page.text()).toContain(`value="${phone}"`);
    const posted = await browser.post(`/verify-phone?code=${code}&phone=${phone}`, { code, phone: phone! });
    expect(await posted.text()).toContain("Phone Verified!");
    expect((await profileOf(userId)).phoneVerified).toBe(true);
  });

  it("shows Verification Failed with the reasons for a wrong code or another number", async () => {
    const { browser, userId, phone } = await userWithPhone();
    const { code } = await sendAndRead(browser, phone!);
    const wrong = await browser.post(linkPath(wrongCode(code), phone!), { code: wrongCode(code), phone: phone! });
    expect(wrong.status).toBe(400);
    const html = await wrong.text();
    expect(html).toContain("Verification Failed");
    expect(html).toContain(PHONE_MESSAGES.invalidCode);
    for (const reason of ["has expired", "is invalid", "does not match your account", "network or server error", "Try Again", "Back to App"]) {
      expect(html).toContain(reason);
    }
    const other = uniquePhone();
    const mismatch = await browser.post(linkPath(code, other), { code, phone: other });
    expect(mismatch.status).toBe(400);
    expect(await mismatch.text()).toContain(PHONE_MESSAGES.phoneMismatch.replace(/'/g, "&#x27;"));
    expect((await profileOf(userId)).phoneVerified).toBe(false);
  });

  it("applies the wrong-attempt limit to the link form too", async () => {
    const { browser, userId, phone } = await userWithPhone();
    const { code } = await sendAndRead(browser, phone!);
    for (let i = 0; i < PHONE_CODE.maxWrongAttempts; i++) await browser.post(linkPath(wrongCode(code), phone!), { code: wrongCode(code), phone: phone! });
    const right = await browser.post(linkPath(code, phone!), { code, phone: phone! });
    expect(right.status).toBeGreaterThanOrEqual(400);
    expect(await right.text()).toContain("Verification Failed");
    expect((await profileOf(userId)).phoneVerified).toBe(false);
  });

  it("asks for both code and phone", async () => {
    for (const path of ["/verify-phone", "/verify-phone?code=123456", "/verify-phone?phone=%2B15551234567"]) {
      const page = await new Browser().get(path);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain(PHONE_MESSAGES.invalidLink);
    }
  });

  it("tells a signed-out visitor to sign in, and refuses their post", async () => {
    const anonymous = new Browser();
    const page = await anonymous.get("/verify-phone?code=123456&phone=%2B15551234567");
    const html = await page.text();
    expect(html).toContain(PHONE_MESSAGES.notAuthenticated);
    expect(html).toContain('href="/auth?mode=signin"');
    const posted = await anonymous.post("/verify-phone?code=123456&phone=%2B15551234567", { code: "123456", phone: "+15551234567" });
    expect(posted.status).toBe(401);
  });
});

describe("the SMS port", () => {
  const message = (to = uniquePhone()): SmsMessage => ({
    type: "sms.send",
    id: crypto.randomUUID(),
    to,
    text: "Your Modelify verification code is 123456.",
    links: [],
  });
  const twilio = { SMS_API_URL: "https://sms.example/", SMS_ACCOUNT_SID: "AC0123456789abcdef", SMS_AUTH_TOKEN: "tok-en", SMS_FROM: "+15005550006" };

  it("posts to a Twilio-compatible Messages API with Basic auth and a form body", async () => {
    const fetcher = vi.fn(async (_url: string | URL | Request, _init?: RequestInit) => Response.json({ sid: "SM1" }, { status: 201 }));
    const sms = message();
    await deliverSms(twilio, db, sms, fetcher as unknown as typeof fetch);
    expect(fetcher).toHaveBeenCalledOnce();
    const [url, init] = fetcher.mock.calls[0]!;
    expect(url).toBe("https://sms.example/2010-04-01/Accounts/AC0123456789abcdef/Messages.json");
    expect(init!.method).toBe("POST");
    const headers = new Headers(init!.headers);
    expect(headers.get("authorization")).toBe(`Basic ${btoa("AC0123456789abcdef:tok-en")}`);
    expect(headers.get("content-type")).toBe("application/x-www-form-urlencoded");
    const form = new URLSearchParams(String(init!.body));
    expect(Object.fromEntries(form)).toEqual({ To: sms.to, From: "+15005550006", Body: sms.text });
    // Sent through the provider: nothing in the local outbox.
    expect(await smsTo(sms.to)).toHaveLength(0);
  });

  it("throws on a non-2xx answer so the queue retries, and the retry sends", async () => {
    const sms = message();
    const failing = vi.fn(async () => new Response("busy", { status: 503 }));
    await expect(deliverSms(twilio, db, sms, failing as unknown as typeof fetch)).rejects.toThrow(/503/);
    const working = vi.fn(async () => Response.json({}, { status: 201 }));
    await deliverSms(twilio, db, sms, working as unknown as typeof fetch);
    expect(working).toHaveBeenCalledOnce();
  });

  it("texts a redelivered message once", async () => {
    const fetcher = vi.fn(async () => Response.json({}, { status: 201 }));
    const sms = message();
    await Promise.all([1, 2, 3].map(() => deliverSms(twilio, db, sms, fetcher as unknown as typeof fetch)));
    await deliverSms(twilio, db, sms, fetcher as unknown as typeof fetch);
    expect(fetcher).toHaveBeenCalledOnce();
  });

  it("stores to the outbox without configuration, once per message, through the consumer", async () => {
    const sms = message();
    for (let attempt = 1; attempt <= 3; attempt++) {
      const batch = createMessageBatch("modelify-events", [{ id: `sms-${attempt}`, timestamp: new Date(), attempts: attempt, body: sms }]);
      const ctx = createExecutionContext();
      await worker.queue(batch, env, ctx);
      expect((await getQueueResult(batch, ctx)).explicitAcks).toEqual([`sms-${attempt}`]);
    }
    const rows = await smsTo(sms.to);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ channel: "sms", to: sms.to, subject: `SMS to ${sms.to}`, text: sms.text });
  });

  it("dead-letters an sms.send that is not to an E.164 number or too long", async () => {
    const bad = [
      { ...message(), to: "5551234567" },
      { ...message(), text: "x".repeat(1601) },
    ];
    const batch = createMessageBatch(
      "modelify-events",
      bad.map((body, i) => ({ id: `bad-sms-${i}`, timestamp: new Date(), attempts: 1, body })),
    );
    const ctx = createExecutionContext();
    await worker.queue(batch, env, ctx);
    expect((await getQueueResult(batch, ctx)).explicitAcks.sort()).toEqual(["bad-sms-0", "bad-sms-1"]);
    expect(await db.query.deadLetters.findFirst({ where: eq(schema.deadLetters.id, "bad-sms-0") })).toBeTruthy();
  });

  it("requires the SMS provider in production", () => {
    const production = { ...env, APP_ENV: "production", MAIL_API_URL: "https://mail.example/emails", MAIL_API_KEY: "k", STRIPE_API_BASE: undefined };
    expect(() => parseConsumerEnv(production as unknown as ConsumerEnv)).toThrow(/SMS_API_URL is required in production/);
    expect(parseConsumerEnv({ ...production, ...twilio } as unknown as ConsumerEnv).SMS_ACCOUNT_SID).toBe(twilio.SMS_ACCOUNT_SID);
  });

  it("lists SMS in /dev/outbox.json for ?to=<E.164>, unencoded + included", async () => {
    const { browser, phone } = await userWithPhone();
    await sendAndRead(browser, phone!);
    for (const to of [phone!, encodeURIComponent(phone!)]) {
      const response = await fetchSite(`/dev/outbox.json?to=${to}`, {});
      const list = await response.json<Array<{ channel: string; to: string; text: string }>>();
      expect(list, to).toHaveLength(1);
      expect(list[0]).toMatchObject({ channel: "sms", to: phone });
      expect(codeOf(list[0]!.text)).toMatch(/^\d{6}$/);
    }
    const page = await (await fetchSite("/dev/outbox", {})).text();
    expect(page).toContain(`SMS to ${phone}`);
  });
});
