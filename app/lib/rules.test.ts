import { describe, expect, it } from "vitest";
import { namesFromMetadata } from "./profile/from-sign-up.server";
import { isInactive } from "./auth/session.server";
import { activityUpdateDue } from "./auth/session-activity.server";
import { isSubCent, SITE_FORMATS } from "./format";
import { accountInitials, accountName, displayName } from "./names";

const HOUR = 3600_000;

describe("names: from the sign-up metadata, else the e-mail's local part, else User", () => {
  it("builds the profile's names from metadata, full name or e-mail, default User", () => {
    expect(namesFromMetadata("a@b.c", { first_name: "Ada", last_name: "Lovelace" })).toEqual({ firstName: "Ada", lastName: "Lovelace" });
    expect(namesFromMetadata("a@b.c", { full_name: "Grace Brewster Hopper" })).toEqual({ firstName: "Grace", lastName: "Brewster Hopper" });
    expect(namesFromMetadata("alan.turing@b.c", {})).toEqual({ firstName: "alan.turing", lastName: null });
    expect(namesFromMetadata("@b.c", {})).toEqual({ firstName: "User", lastName: null });
  });

  it("greets by full name, else first name, else e-mail local part, else User", () => {
    expect(displayName({ firstName: "Ada", lastName: "Lovelace", email: "x@y.z" })).toBe("Ada Lovelace");
    expect(displayName({ firstName: "Ada", lastName: null, email: "x@y.z" })).toBe("Ada");
    expect(displayName({ firstName: null, lastName: null, email: "ada@y.z" })).toBe("ada");
    expect(displayName({ firstName: null, lastName: null, email: "@y.z" })).toBe("User");
  });

  it("names the account in the sidebar by the profile's name, else its username, else the e-mail's local part", () => {
    const none = { firstName: null, lastName: null, username: null, email: "ada@y.z" };
    expect(accountName({ ...none, firstName: "Ada", lastName: "Lovelace" })).toBe("Ada Lovelace");
    expect(accountName({ ...none, firstName: " Ada ", lastName: "" })).toBe("Ada");
    expect(accountName({ ...none, lastName: "Lovelace" })).toBe("Lovelace");
    expect(accountName({ ...none, username: "countess" })).toBe("countess");
    expect(accountName(none)).toBe("ada");
    expect(accountName({ ...none, email: "@y.z" })).toBe("User");
    expect(accountInitials({ ...none, firstName: "ada", lastName: "lovelace" })).toBe("AL");
    expect(accountInitials({ ...none, username: "countess" })).toBe("C");
    expect(accountInitials(none)).toBe("A");
  });
});

describe("inactivity rule (720 h)", () => {
  const now = Date.now();
  it("needs both an old account and an old last login", () => {
    expect(isInactive({ createdAt: now - 721 * HOUR, lastLoginAt: now - 721 * HOUR }, now)).toBe(true);
    expect(isInactive({ createdAt: now - 721 * HOUR, lastLoginAt: null }, now)).toBe(true);
    expect(isInactive({ createdAt: now - 721 * HOUR, lastLoginAt: now - 719 * HOUR }, now)).toBe(false);
    expect(isInactive({ createdAt: now - 719 * HOUR, lastLoginAt: null }, now)).toBe(false);
  });
});

describe("last_activity_at", () => {
  it("is written at most every 30 minutes", () => {
    const now = Date.now();
    expect(activityUpdateDue(null, now)).toBe(true);
    expect(activityUpdateDue(now - 29 * 60_000, now)).toBe(false);
    expect(activityUpdateDue(now - 30 * 60_000, now)).toBe(true);
  });
});

describe("formats and small helpers", () => {
  it("shows USD with 2 decimals and K/M counts", () => {
    expect(SITE_FORMATS.usd(1234.5)).toBe("$1,234.50");
    // One rule for money: a call that cost something never reads $0.00.
    expect(SITE_FORMATS.usd(0.004)).toBe("< $0.01");
    expect(SITE_FORMATS.usd(0.0004)).toBe("< $0.01");
    expect(SITE_FORMATS.usd(0.01)).toBe("$0.01");
    expect(SITE_FORMATS.usd(0)).toBe("$0.00");
    expect(SITE_FORMATS.usdExact(0.0004)).toBe("$0.0004");
    expect(SITE_FORMATS.usdExact(0.000123)).toBe("$0.000123");
    expect(isSubCent(0.0099)).toBe(true);
    expect(isSubCent(0)).toBe(false);
    expect(SITE_FORMATS.plural(1, "day")).toBe("1 day");
    expect(SITE_FORMATS.plural(2, "day")).toBe("2 days");
    expect(SITE_FORMATS.count(999)).toBe("999");
    expect(SITE_FORMATS.count(1500)).toBe("1.5K");
    expect(SITE_FORMATS.count(2_000_000)).toBe("2M");
  });
});
