import { describe, expect, it } from "vitest";
import { EARLY_ACCESS, PERSON_NAME } from "../constants";
import { PERSON_NAME_MESSAGES } from "../person-name";
import { WAITLIST_MESSAGES as M } from "./messages";
import { priorityScore, waitlistSchema } from "./waitlist";

const p = EARLY_ACCESS.priority;

describe("waitlist priority score", () => {
  it("adds the company, member-referral and early-place bonuses", () => {
    expect(priorityScore({ company: null, referredByMember: false, place: p.earlyPlaces + 1 })).toBe(0);
    expect(priorityScore({ company: "Acme", referredByMember: false, place: p.earlyPlaces + 1 })).toBe(p.company);
    expect(priorityScore({ company: "", referredByMember: true, place: p.earlyPlaces + 1 })).toBe(p.referral);
    expect(priorityScore({ company: null, referredByMember: false, place: p.earlyPlaces })).toBe(p.early);
    expect(priorityScore({ company: "Acme", referredByMember: true, place: 1 })).toBe(p.company + p.referral + p.early);
  });
});

describe("waitlist form", () => {
  it("trims, lower-cases the address and keeps a well-formed referral", () => {
    const parsed = waitlistSchema.parse({ email: "  Ada@Example.COM ", firstName: " Ada ", lastName: "Lovelace", company: "", ref: "grace_h" });
    expect(parsed).toEqual({ email: "ada@example.com", firstName: "Ada", lastName: "Lovelace", company: "", ref: "grace_h" });
  });

  it("drops a referral that is not a plain code", () => {
    expect(waitlistSchema.parse({ email: "a@b.co", firstName: "A", lastName: "B", ref: "<script>" }).ref).toBeUndefined();
  });

  it("says what is missing or wrong", () => {
    const result = waitlistSchema.safeParse({ email: "not-an-address", firstName: " ", lastName: "x".repeat(PERSON_NAME.maxLength + 1) });
    expect(result.success).toBe(false);
    const issues = Object.fromEntries((result.error?.issues ?? []).map((i) => [i.path.join("."), i.message]));
    expect(issues).toEqual({ email: M.emailInvalid, firstName: M.firstNameRequired, lastName: PERSON_NAME_MESSAGES.tooLong("Last name") });
  });
});
