import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { getDb } from "../db.server";
import {
  clearCounter,
  countEvent,
  currentCount,
  lengthenLock,
  overCap,
  releaseAttempt,
  reserveAttempt,
  secondsUntil,
  sweepExpiredCounters,
} from "./counters.server";

const db = getDb(env.DB);
const rule = { maxFailures: 4, windowMs: 15 * 60_000 };
let n = 0;
const key = () => `test:${Date.now()}:${n++}`;

describe("atomic attempt counters", () => {
  it("lets exactly `limit` of 30 parallel events through a cap and tells the rest how long to wait", async () => {
    const k = key();
    const now = Date.now();
    const waits = await Promise.all(Array.from({ length: 30 }, () => overCap(db, k, { limit: 7, windowMs: 60_000 }, now)));
    expect(waits.filter((w) => w === null)).toHaveLength(7);
    expect(waits.filter((w) => w === 60)).toHaveLength(23);
    expect(secondsUntil(now + 1, now)).toBe(1);
    expect(secondsUntil(now - 5000, now)).toBe(1);
    expect(secondsUntil(now + 1001, now)).toBe(2);
  });

  it("allows exactly maxFailures + 1 of 40 parallel reservations", async () => {
    const k = key();
    const results = await Promise.all(Array.from({ length: 40 }, () => reserveAttempt(db, k, rule)));
    expect(results.filter((r) => r.allowed)).toHaveLength(5);
    expect(results.filter((r) => !r.allowed)).toHaveLength(35);
  });

  it("keeps a lock for the window after the failure that caused it; refused attempts do not extend it", async () => {
    const k = key();
    const t0 = 1_000_000_000_000;
    for (let i = 0; i < 5; i++) expect((await reserveAttempt(db, k, rule, t0 + i)).allowed).toBe(true);
    const lockedAt = t0 + 4;
    const refused = await reserveAttempt(db, k, rule, t0 + 60_000);
    expect(refused).toMatchObject({ allowed: false, expiresAt: lockedAt + rule.windowMs });
    expect((await reserveAttempt(db, k, rule, lockedAt + rule.windowMs - 1)).allowed).toBe(false);
    const fresh = await reserveAttempt(db, k, rule, lockedAt + rule.windowMs);
    expect(fresh).toMatchObject({ allowed: true, count: 1 });
  });

  it("gives a reservation back, and a cleared key starts again", async () => {
    const k = key();
    await reserveAttempt(db, k, rule);
    await reserveAttempt(db, k, rule);
    await releaseAttempt(db, k, rule.maxFailures);
    expect((await reserveAttempt(db, k, rule)).count).toBe(2);
    await clearCounter(db, k);
    expect((await reserveAttempt(db, k, rule)).count).toBe(1);
  });

  it("counts events in a fixed window without losing any under concurrency", async () => {
    const k = key();
    const t0 = 2_000_000_000_000;
    const counts = await Promise.all(Array.from({ length: 30 }, () => countEvent(db, k, 60_000, t0)));
    expect(counts.map((c) => c.count).sort((a, b) => a - b)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
    expect(await currentCount(db, k, t0 + 59_999)).toBe(30);
    expect(await currentCount(db, k, t0 + 60_000)).toBe(0);
    expect((await countEvent(db, k, 60_000, t0 + 60_000)).count).toBe(1);
  });

  it("lengthens a lock by its trip's step, counting parallel trips one by one, never shortening it, and leaving an unlocked key alone", async () => {
    const k = key();
    const trips = key();
    const t0 = 3_000_000_000_000;
    const growth = { maxFailures: rule.maxFailures, ladder: [10, 20, 40], forgetAfterMs: 1_000 };
    for (let i = 0; i < 5; i++) await reserveAttempt(db, k, { ...rule, windowMs: 10 }, t0);
    const results = await Promise.all(Array.from({ length: 4 }, () => lengthenLock(db, k, trips, growth, t0, t0)));
    expect(results.map((r) => r.trips).sort()).toEqual([1, 2, 3, 4]);
    expect(results.find((r) => r.trips === 4)).toMatchObject({ lockMs: 40, expiresAt: t0 + 40 });
    expect((await reserveAttempt(db, k, rule, t0 + 39)).allowed).toBe(false);
    // A later trip whose lock would end sooner leaves the longer one; a trip forgotten starts at 1.
    expect(await lengthenLock(db, k, trips, growth, t0 - 100, t0 + 500)).toMatchObject({ trips: 5, expiresAt: t0 + 40 });
    expect((await lengthenLock(db, k, trips, growth, t0, t0 + 1_501)).trips).toBe(1);
    await clearCounter(db, k, trips);
    expect(await lengthenLock(db, k, trips, growth, t0, t0)).toMatchObject({ trips: 1, expiresAt: null });
  });

  it("sweeps windows that have ended", async () => {
    const k = key();
    await countEvent(db, k, 1, 1_000);
    expect(await sweepExpiredCounters(db, Date.now())).toBeGreaterThanOrEqual(1);
    expect(await currentCount(db, k, 0)).toBe(0);
  });
});
