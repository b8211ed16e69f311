// Issue 27, exact free-tier limits: POST /api/v1/entitlements/claim asks the account's usage
// ledger (a Durable Object) before each model call, and the ledger counts the claim in the
// minute, hour, day and month at once, one claim at a time. Parallel claims from several devices
// of a free account therefore get exactly the grants the limits allow, and the rest 429 with the
// real Retry-After. Every counting test here sends its claims in parallel: a ledger that read the
// counts, awaited, then wrote would grant more than the limit and fail them.
import { env, SELF } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { FREE_TIER, MS } from "~/lib/constants";
import { schema } from "~/lib/db.server";
import { type ClaimOutcome, claimEntitlement, type Entitlements } from "~/lib/usage/entitlements.server";
import { windowBounds } from "~/lib/usage/windows";
import { ledgerFor } from "~/lib/usage/ledger/api";
import type { LedgerUsage } from "~/lib/usage/ledger/types";
import { db, inOneMinute, ORIGIN } from "./helpers";
import { apiUser, deviceToken, postUsage, report, waitForRows } from "./usage-helpers";

const CLAIM = `${ORIGIN}/api/v1/entitlements/claim`;
type ClaimBody = Entitlements & { granted: boolean; error?: string };

function claim(token: string | null, init: RequestInit = {}) {
  return SELF.fetch(CLAIM, {
    method: "POST",
    ...init,
    headers: { ...(token ? { Authorization: `Bearer ${token}` } : {}), ...(init.headers as Record<string, string>) },
  });
}

const windowOf = (e: Entitlements, window: string, unit = "requests") => e.windows.find((w) => w.window === window && w.unit === unit)!;

/** A free account with two signed-in devices. */
async function freeAccountWithTwoDevices() {
  const { browser, userId } = await apiUser();
  const [laptop, desktop] = await Promise.all([deviceToken(browser, "Claim laptop"), deviceToken(browser, "Claim desktop")]);
  expect(laptop).not.toBe(desktop);
  return { userId, laptop, desktop };
}

/** A model call's report as the consumer hands it to the ledger. */
function ledgerReport(occurredAt: number, overrides: Partial<LedgerUsage> = {}): LedgerUsage {
  return {
    id: crypto.randomUUID(),
    occurredAt,
    receivedAt: occurredAt,
    modelName: "gpt-4o-mini",
    modelProvider: "openai",
    requestType: "chat",
    tokensUsed: 10,
    tokensInput: 6,
    tokensOutput: 4,
    costMicros: 100,
    durationMs: 500,
    success: true,
    errorMessage: null,
    metadata: null,
    conversationId: null,
    appVersion: "2.0.0",
    appInstanceId: "claim-test",
    deviceId: null,
    ...overrides,
  };
}

const FREE_PROFILE = { earlyAccessStatus: null, earlyAccessExpiresAt: null, timeZone: "UTC" };
const deps = { db, ledgers: env.USAGE_LEDGER };

/** `n` claims of one free account at the same instant, all in flight together. */
function parallelClaims(userId: string, now: number, n: number): Promise<ClaimOutcome[]> {
  return Promise.all(Array.from({ length: n }, () => claimEntitlement(deps, userId, FREE_PROFILE, now)));
}
const grantsOf = (outcomes: ClaimOutcome[]) => outcomes.filter((o) => o.granted).length;

describe("POST /api/v1/entitlements/claim, through the real runtime", () => {
  it("grants exactly 3 of 20 parallel claims from two devices of a free account in one minute; 17 get 429 with the seconds to the minute's end", () =>
    inOneMinute(async () => {
      const { laptop, desktop } = await freeAccountWithTwoDevices();
      const before = Date.now();
      const responses = await Promise.all(Array.from({ length: 20 }, (_, i) => claim(i % 2 === 0 ? laptop : desktop)));
      const after = Date.now();
      const bodies = await Promise.all(responses.map((r) => r.json<ClaimBody>()));

      expect(responses.filter((r) => r.status === 200)).toHaveLength(FREE_TIER.perMinute);
      expect(responses.filter((r) => r.status === 429)).toHaveLength(20 - FREE_TIER.perMinute);
      const minuteEnd = windowBounds(before).minute.end;
      for (const [i, response] of responses.entries()) {
        const body = bodies[i]!;
        expect(response.headers.get("Cache-Control")).toBe("no-store");
        expect(body.plan).toBe("free");
        // Every claim was decided in the same minute (inOneMinute runs again after a straddle).
        expect(windowOf(body, "minute").resets_at).toBe(new Date(minuteEnd).toISOString());
        expect(windowOf(body, "minute").used).toBeLessThanOrEqual(FREE_TIER.perMinute);
        if (response.status === 200) {
          expect(body.granted).toBe(true);
          expect(response.headers.get("Retry-After")).toBeNull();
          continue;
        }
        expect(body.granted).toBe(false);
        expect(body.error).toContain("Retry-After");
        expect(body).toMatchObject({ allowed: false, allowed_at: new Date(minuteEnd).toISOString() });
        const wait = Number(response.headers.get("Retry-After"));
        expect(wait).toBe(body.retry_after_seconds);
        expect(wait).toBeGreaterThanOrEqual(1);
        // The seconds from the server's moment of refusal (between before and after) to the minute's end.
        expect(wait).toBeGreaterThanOrEqual(Math.max(1, Math.ceil((minuteEnd - after) / 1000)));
        expect(wait).toBeLessThanOrEqual(Math.max(1, Math.ceil((minuteEnd - before) / 1000)));
      }
      // The grants counted 1, 2 and 3: each granted claim saw the ones before it.
      expect(
        bodies
          .filter((b) => b.granted)
          .map((b) => windowOf(b, "minute").used)
          .sort(),
      ).toEqual([1, 2, 3]);

      // GET stays for display: it shows the three claims (no report arrived), and refusals counted nothing.
      const shown = await (await SELF.fetch(`${ORIGIN}/api/v1/entitlements`, { headers: { Authorization: `Bearer ${laptop}` } })).json<Entitlements>();
      expect(windowOf(shown, "minute")).toMatchObject({ used: 3, remaining: 0 });
      expect(windowOf(shown, "month")).toMatchObject({ used: 3 });
      expect(shown.allowed).toBe(false);
    }));

  it("counts the greater of claims and reports: a call reported without a claim uses up the minute too", () =>
    inOneMinute(async () => {
      const { token, userId } = await apiUser();
      const now = Date.now();
      for (let i = 0; i < 2; i++) expect((await postUsage(token, report({ occurred_at: now }))).status).toBe(202);
      await waitForRows(userId, 2);
      const responses = await Promise.all(Array.from({ length: 10 }, () => claim(token)));
      expect(responses.filter((r) => r.status === 200)).toHaveLength(FREE_TIER.perMinute - 2);
      expect(responses.filter((r) => r.status === 429)).toHaveLength(10 - (FREE_TIER.perMinute - 2));
    }));

  it("never asks a subscriber or an early-access member to wait: 20 of 20 granted, past the free limits", async () => {
    const subscriber = await apiUser();
    await db
      .insert(schema.subscriptions)
      .values({ id: crypto.randomUUID(), userId: subscriber.userId, status: "active", currentPeriodEnd: Date.now() + 30 * MS.DAY });
    const member = await apiUser();
    await db
      .update(schema.userProfiles)
      .set({ earlyAccessStatus: "active", earlyAccessExpiresAt: Date.now() + MS.DAY })
      .where(eq(schema.userProfiles.userId, member.userId));

    for (const [plan, account] of [
      ["premium", subscriber],
      ["early_access", member],
    ] as const) {
      // Already past every free limit this minute, by reports.
      const now = Date.now();
      await ledgerFor(env.USAGE_LEDGER, account.userId).ingest({
        usage: Array.from({ length: FREE_TIER.requestsPerMonth + 5 }, () => ledgerReport(now)),
        secure: [],
        budget: null,
        now,
      });
      const responses = await Promise.all(Array.from({ length: 20 }, () => claim(account.token)));
      expect(
        responses.map((r) => r.status),
        plan,
      ).toEqual(Array(20).fill(200));
      for (const response of responses) {
        expect(response.headers.get("Retry-After"), plan).toBeNull();
        expect(await response.json(), plan).toMatchObject({ granted: true, plan, unlimited: true, allowed: true, retry_after_seconds: null });
      }
    }
  });

  it("answers 401 without a valid token", async () => {
    const missing = await claim(null);
    expect(missing.status).toBe(401);
    expect(missing.headers.get("WWW-Authenticate")).toContain("Bearer");
    expect(await missing.json()).toMatchObject({ error: expect.any(String) });
    expect((await claim("not-a-real-token-at-all-xxxxxxxx")).status).toBe(401);
  });

  it("answers 405 to a GET and other methods, with Allow: POST", async () => {
    const { token } = await apiUser();
    for (const method of ["GET", "HEAD", "PUT", "PATCH", "DELETE"]) {
      const response = await claim(token, { method });
      expect(response.status, method).toBe(405);
      expect(response.headers.get("Allow"), method).toBe("POST");
    }
    // None of them was counted.
    const shown = await (await SELF.fetch(`${ORIGIN}/api/v1/entitlements`, { headers: { Authorization: `Bearer ${token}` } })).json<Entitlements>();
    expect(windowOf(shown, "month").used).toBe(0);
  });

  it("takes no body, {} or a claim (estimate, model and provider together), and refuses any other body with a 4xx, counting nothing", async () => {
    const { token } = await apiUser();
    const json = { "Content-Type": "application/json" };
    const refused: Array<[RequestInit, number]> = [
      [{ body: '{"model":"gpt-4o"}', headers: json }, 400],
      [{ body: "[]", headers: json }, 400],
      [{ body: "{", headers: json }, 400],
      [{ body: "model=gpt-4o", headers: { "Content-Type": "application/x-www-form-urlencoded" } }, 415],
      [{ body: "x".repeat(64 * 1024), headers: json }, 413],
    ];
    for (const [init, status] of refused) {
      const response = await claim(token, init);
      expect(response.status, String(init.body).slice(0, 20)).toBe(status);
      expect(await response.json()).toMatchObject({ error: expect.any(String) });
    }
    const shown = await (await SELF.fetch(`${ORIGIN}/api/v1/entitlements`, { headers: { Authorization: `Bearer ${token}` } })).json<Entitlements>();
    expect(windowOf(shown, "month").used).toBe(0);
    expect((await claim(token)).status).toBe(200);
    expect((await claim(token, { body: "{}", headers: json })).status).toBe(200);
    expect((await claim(token, { body: " ", headers: { "Content-Type": "text/plain" } })).status).toBe(200);
  });
});

describe("the ledger's claim, at chosen moments (claimEntitlement with an injected now)", () => {
  it("holds the monthly limit at its boundary: at 999 of 1,000 requests, exactly 1 of 20 parallel claims is granted, the rest wait for the month's end", async () => {
    const userId = crypto.randomUUID();
    // Near the end of a month, so that earlier days hold the 999 requests: no minute, hour or day
    // window is near its limit, only the month.
    const now = Date.UTC(2026, 10, 27, 9, 30, 15);
    const monthEnd = Date.UTC(2026, 11, 1);
    const usage = Array.from({ length: FREE_TIER.requestsPerMonth - 1 }, (_, i) => ledgerReport(Date.UTC(2026, 10, 1 + (i % 26), 8, i % 60)));
    const ingested = await ledgerFor(env.USAGE_LEDGER, userId).ingest({ usage, secure: [], budget: null, now });
    expect(ingested.stored).toBe(FREE_TIER.requestsPerMonth - 1);

    const burst = await parallelClaims(userId, now, 20);
    expect(grantsOf(burst)).toBe(1);
    const granted = burst.find((o) => o.granted)!;
    expect(windowOf(granted.entitlements, "month")).toMatchObject({ used: FREE_TIER.requestsPerMonth, remaining: 0 });
    for (const { entitlements } of burst.filter((o) => !o.granted)) {
      expect(entitlements.retry_after_seconds).toBe(Math.ceil((monthEnd - now) / 1000));
      expect(entitlements.allowed_at).toBe(new Date(monthEnd).toISOString());
    }
    // The last second of the month still refuses; its first second of the next grants again (3 a minute).
    expect(grantsOf(await parallelClaims(userId, monthEnd - 1, 20))).toBe(0);
    const next = await parallelClaims(userId, monthEnd, 20);
    expect(grantsOf(next)).toBe(FREE_TIER.perMinute);
    expect(Math.max(...next.map((o) => windowOf(o.entitlements, "month").used))).toBe(FREE_TIER.perMinute);
  });

  it("rolls the windows over: claims of the previous minute don't count in the next one, the hour's 20 hold across minutes", async () => {
    const userId = crypto.randomUUID();
    const at = (minute: number, second = 10) => Date.UTC(2026, 10, 23, 15, minute, second);
    // Minutes 15:50 to 15:55: 3 of 10 each (18 in the hour).
    for (let minute = 50; minute <= 55; minute++) {
      const outcomes = await parallelClaims(userId, at(minute), 10);
      expect(grantsOf(outcomes), `15:${minute}`).toBe(FREE_TIER.perMinute);
      for (const o of outcomes) expect(windowOf(o.entitlements, "minute").used, `15:${minute}`).toBeLessThanOrEqual(FREE_TIER.perMinute);
      // Refused ones wait for the minute's end (50 s at hh:mm:10), not longer.
      for (const o of outcomes.filter((x) => !x.granted)) expect(o.entitlements.retry_after_seconds).toBe(50);
      const hourUsed = Math.max(...outcomes.map((o) => windowOf(o.entitlements, "hour").used));
      expect(hourUsed).toBe((minute - 49) * FREE_TIER.perMinute);
    }
    // 15:56: only 2 left in the hour; the refused wait for the hour's end (16:00:00), 230 s.
    const last = await parallelClaims(userId, at(56), 10);
    expect(grantsOf(last)).toBe(FREE_TIER.perHour - 6 * FREE_TIER.perMinute);
    for (const o of last.filter((x) => !x.granted)) {
      expect(o.entitlements.retry_after_seconds).toBe(230);
      expect(o.entitlements.allowed_at).toBe(new Date(Date.UTC(2026, 10, 23, 16)).toISOString());
    }
    // 15:57, a fresh minute but a full hour: nothing.
    expect(grantsOf(await parallelClaims(userId, at(57), 10))).toBe(0);
    // 16:00, a fresh hour: 3 again; the day keeps all 23.
    const nextHour = await parallelClaims(userId, Date.UTC(2026, 10, 23, 16, 0, 0), 10);
    expect(grantsOf(nextHour)).toBe(FREE_TIER.perMinute);
    expect(Math.max(...nextHour.map((o) => windowOf(o.entitlements, "day").used))).toBe(FREE_TIER.perHour + FREE_TIER.perMinute);
  });
});
