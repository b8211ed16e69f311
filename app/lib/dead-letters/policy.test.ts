import { describe, expect, it } from "vitest";
import consumerConfig from "../../../wrangler.consumer.toml?raw";
import testConfig from "../../../tests/wrangler.test.toml?raw";
import { DEAD_LETTERS, EVENTS_QUEUE, MS } from "../constants";
import { QUEUE_MESSAGE_TYPES } from "../queue-redaction";
import { keepsOriginal, replayVerdict } from "./policy";

const now = Date.UTC(2026, 10, 26, 12);
const letter = (kind: string, overrides: Partial<Parameters<typeof replayVerdict>[0]> = {}) => ({
  kind,
  reason: "retries_exhausted" as const,
  sentAt: now - MS.HOUR,
  createdAt: now - MS.MINUTE,
  hasOriginal: true,
  ...overrides,
});

describe("which dead letters can be replayed", () => {
  it("every kind whose consumer does its effect once, when its retries ran out and its original was kept", () => {
    const replayable = QUEUE_MESSAGE_TYPES.filter((kind) => replayVerdict(letter(kind), now).replayable);
    expect(replayable.sort()).toEqual(QUEUE_MESSAGE_TYPES.filter((kind) => kind !== "account.export").sort());
    for (const kind of QUEUE_MESSAGE_TYPES) expect(keepsOriginal(kind, "retries_exhausted"), kind).toBe(kind !== "account.export");
  });

  it("never a malformed message, a deleted account's report, an unknown kind or one without its original", () => {
    expect(replayVerdict(letter("mail.send", { reason: "malformed" }), now)).toMatchObject({
      replayable: false,
      why: expect.stringContaining("message format"),
    });
    expect(replayVerdict(letter("usage.report", { reason: "account_not_found" }), now)).toMatchObject({
      replayable: false,
      why: "Its account no longer exists.",
    });
    expect(replayVerdict(letter("usage.report", { hasOriginal: false }), now)).toMatchObject({
      replayable: false,
      why: expect.stringContaining("DEAD_LETTER_KEY"),
    });
    expect(replayVerdict(letter("account.export"), now)).toMatchObject({ replayable: false, why: expect.stringContaining("ask for a new one") });
    for (const reason of ["malformed", "account_not_found"] as const) expect(keepsOriginal("usage.report", reason)).toBe(false);
    expect(keepsOriginal("unknown", "retries_exhausted")).toBe(false);
  });

  it("mail and texts for a day after they were sent, everything else while it is kept", () => {
    const dayOld = now - DEAD_LETTERS.replayMessageMs;
    for (const kind of ["mail.send", "sms.send"]) {
      expect(replayVerdict(letter(kind, { sentAt: dayOld + MS.MINUTE }), now).replayable, kind).toBe(true);
      expect(replayVerdict(letter(kind, { sentAt: dayOld - MS.MINUTE }), now), kind).toMatchObject({
        replayable: false,
        why: expect.stringContaining("expired"),
      });
      // Without a send time, the day counts from when it was recorded.
      expect(replayVerdict(letter(kind, { sentAt: null, createdAt: dayOld - MS.MINUTE }), now).replayable, kind).toBe(false);
    }
    expect(replayVerdict(letter("stripe.event", { sentAt: now - 10 * MS.DAY }), now).replayable).toBe(true);
  });
});

describe("the attempts a dead letter records", () => {
  it("count the events queue's deliveries: every max_retries the Workers are configured with is EVENTS_QUEUE.maxRetries", () => {
    for (const config of [consumerConfig, testConfig]) {
      const retries = [...config.matchAll(/^max_retries\s*=\s*(\d+)/gm)].map((m) => Number(m[1]));
      expect(retries.length).toBeGreaterThan(0);
      for (const value of retries) expect(value).toBe(EVENTS_QUEUE.maxRetries);
    }
  });
});
