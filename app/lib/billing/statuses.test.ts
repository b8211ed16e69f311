import { describe, expect, it } from "vitest";
import { SUBSCRIPTION_STATUSES } from "~drizzle/subscription-statuses";
import { schema } from "../db.server";
import { ADMIN_STATUSES, countsAsActive, fromStripeStatus, isLive, isPaid, statusLabel, trialAvailable, trialNeedsStripe } from "./statuses";

const HOUR = 3600_000;
const STRIPE_STATUSES = ["trialing", "active", "past_due", "canceled", "unpaid", "incomplete", "incomplete_expired", "paused"] as const;

describe("subscription statuses", () => {
  it("are the schema's enum, and an admin sets only some of them", () => {
    expect(schema.subscriptions.status.enumValues).toEqual([...SUBSCRIPTION_STATUSES]);
    for (const status of ADMIN_STATUSES) expect(SUBSCRIPTION_STATUSES).toContain(status);
  });

  it("take Stripe's names, except trialing, which the spec calls trial", () => {
    expect(STRIPE_STATUSES.map(fromStripeStatus)).toEqual([...SUBSCRIPTION_STATUSES]);
  });

  it("are live while the subscription still bills, or will", () => {
    expect(SUBSCRIPTION_STATUSES.filter(isLive)).toEqual(["trial", "active", "past_due", "unpaid", "incomplete", "paused"]);
    expect(STRIPE_STATUSES.filter((s) => isLive(fromStripeStatus(s)))).toEqual(["trialing", "active", "past_due", "unpaid", "incomplete", "paused"]);
  });

  it("are paid for trial and active only", () => {
    expect(SUBSCRIPTION_STATUSES.filter((status) => isPaid({ status }))).toEqual(["trial", "active"]);
    expect(isPaid(null)).toBe(false);
  });
});

describe("subscription counts as active: trial or active, with time left or no end", () => {
  const now = Date.now();
  it.each([
    [{ status: "trial", trialEnd: now + HOUR, currentPeriodEnd: null }, true],
    [{ status: "trial", trialEnd: now - HOUR, currentPeriodEnd: null }, false],
    [{ status: "trial", trialEnd: null, currentPeriodEnd: null }, false],
    [{ status: "active", trialEnd: null, currentPeriodEnd: now + HOUR }, true],
    [{ status: "active", trialEnd: null, currentPeriodEnd: now - HOUR }, false],
    [{ status: "active", trialEnd: null, currentPeriodEnd: null }, true],
    [{ status: "past_due", trialEnd: null, currentPeriodEnd: now + HOUR }, false],
    [null, false],
  ])("%j → %s", (sub, expected) => {
    expect(countsAsActive(sub, now)).toBe(expected);
  });

  it("labels the status", () => {
    expect(statusLabel(null)).toBe("Inactive");
    expect(statusLabel({ status: "trial" })).toBe("Trial");
    expect(statusLabel({ status: "active" })).toBe("Active");
    expect(statusLabel({ status: "past_due" })).toBe("Past due");
  });
});

describe("trial: once per account, whichever source saw it", () => {
  it.each([
    [{ trialStart: null, trialUsed: null }, true],
    [{ trialStart: null, trialUsed: false }, true],
    [{ trialStart: null, trialUsed: true }, false],
    [{ trialStart: 1_700_000_000_000, trialUsed: null }, false],
    [{ trialStart: 1_700_000_000_000, trialUsed: false }, false],
  ])("%j → available %s", (history, expected) => {
    expect(trialAvailable(history)).toBe(expected);
  });

  it("asks Stripe only about a customer whose trials were never read, and only when the local history allows a trial", () => {
    expect(trialNeedsStripe({ trialStart: null, trialUsed: null }, "cus_1")).toBe(true);
    expect(trialNeedsStripe({ trialStart: null, trialUsed: null }, null)).toBe(false);
    expect(trialNeedsStripe({ trialStart: null, trialUsed: false }, "cus_1")).toBe(false);
    expect(trialNeedsStripe({ trialStart: null, trialUsed: true }, "cus_1")).toBe(false);
    expect(trialNeedsStripe({ trialStart: 1_700_000_000_000, trialUsed: null }, "cus_1")).toBe(false);
  });
});
