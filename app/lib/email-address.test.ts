import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { AUTH_MESSAGES } from "./auth/messages";
import { apiTokenRequestSchema, forgotPasswordSchema, signInSchema, signUpSchema } from "./auth/validation";
import { adminToolsFormSchema } from "./billing/admin-form.server";
import { supportShape } from "./config";
import { EMAIL_ADDRESS } from "./constants";
import { WAITLIST_MESSAGES } from "./early-access/messages";
import { waitlistSchema } from "./early-access/waitlist";
import { emailAddress } from "./email-address";
import { PROFILE_MESSAGES } from "./profile/messages";
import { profileFormSchema } from "./profile/validation";
import { queueMessageSchema } from "./queue/messages";
import { SUPPORT_MESSAGES } from "./support/messages";
import { supportMessageSchema } from "./support/validation";

const atTheLimit = `${"a".repeat(64)}@${"b".repeat(EMAIL_ADDRESS.maxLength - 69)}.com`;

const ACCEPTED = ["ada@example.com", " Ada@Example.COM ", "a.b+tag@mail.example.co.uk", "josé@exämple.com", atTheLimit];
const REFUSED = [
  "",
  "ada",
  "ada.example.com",
  "ada@example",
  "ada@example.",
  "@example.com",
  "a b@example.com",
  "ada@exa mple.com",
  "a@b@example.com",
  "ada\u0000@example.com",
  "ada@example.com\u0085",
  `a${atTheLimit}`,
];

const uuid = "6f1c1f0e-6b1a-4c55-9a55-6f3e0f6d2a11";

// Every schema that reads an address, with the rest of its input valid: the e-mail's field decides.
const READERS: Array<[string, z.ZodType, (email: string) => unknown, string]> = [
  ["sign-in", signInSchema, (email) => ({ intent: "signin", email, password: "12345678" }), "email"],
  [
    "sign-up",
    signUpSchema,
    (email) => ({
      intent: "signup",
      firstName: "Ada",
      lastName: "Lovelace",
      email,
      phoneNumber: "5551234567",
      securityQuestion: "favorite_food",
      securityAnswer: "pasta",
      password: "Sunny-Day-42",
      confirmPassword: "Sunny-Day-42",
    }),
    "email",
  ],
  ["forgot password", forgotPasswordSchema, (email) => ({ intent: "forgot-password", email }), "email"],
  ["the desktop app's sign-in", apiTokenRequestSchema, (email) => ({ email, password: "12345678" }), "email"],
  ["the profile", profileFormSchema, (email) => ({ firstName: "Ada", lastName: "Lovelace", email }), "email"],
  ["the waitlist", waitlistSchema, (email) => ({ email, firstName: "Ada", lastName: "Lovelace" }), "email"],
  ["Contact Support", supportMessageSchema, (email) => ({ name: "Ada", email, subject: "Hello", message: "Hi" }), "email"],
  ["the admin tools", adminToolsFormSchema, (email) => ({ intent: "lookup", email }), "email"],
  ["a queued sign-up's recovery", queueMessageSchema, (email) => ({ type: "account.recovery", id: uuid, email, origin: "https://modelify.dev" }), "email"],
  ["a queued mail", queueMessageSchema, (to) => ({ type: "mail.send", id: uuid, to, subject: "Hello", text: "Hello", links: [] }), "to"],
  ["the support inbox setting", supportShape.SUPPORT_INBOX, (email) => email, ""],
];

function emailIssues(schema: z.ZodType, input: unknown, field: string): string[] {
  const result = schema.safeParse(input);
  return (result.error?.issues ?? []).filter((issue) => (issue.path[0] ?? "") === field).map((issue) => issue.message);
}

describe("the e-mail address rule: one rule wherever an address is read", () => {
  it.each(READERS)("%s takes exactly the addresses the rule takes", (_name, schema, input, field) => {
    for (const address of ACCEPTED) expect(emailIssues(schema, input(address), field), address).toEqual([]);
    for (const address of REFUSED) expect(emailIssues(schema, input(address), field), JSON.stringify(address)).not.toEqual([]);
  });

  it("trims and lower-cases what it takes", () => {
    expect(emailAddress().parse("  Ada@Example.COM ")).toBe("ada@example.com");
  });

  it("says each form's own words: one for a bad address, and where the form has them, others for an empty field", () => {
    const bad = "ada@example";
    expect(emailIssues(signUpSchema, { email: bad }, "email")).toEqual([AUTH_MESSAGES.invalidEmail]);
    expect(emailIssues(signInSchema, { email: "" }, "email")).toEqual([AUTH_MESSAGES.invalidEmail]);
    expect(emailIssues(profileFormSchema, { email: bad }, "email")).toEqual([PROFILE_MESSAGES.invalidEmail]);
    expect(emailIssues(waitlistSchema, { email: bad }, "email")).toEqual([WAITLIST_MESSAGES.emailInvalid]);
    expect(emailIssues(waitlistSchema, { email: " " }, "email")).toEqual([WAITLIST_MESSAGES.emailRequired]);
    expect(emailIssues(supportMessageSchema, { email: bad }, "email")).toEqual([SUPPORT_MESSAGES.emailInvalid]);
    expect(emailIssues(supportMessageSchema, { email: "" }, "email")).toEqual([SUPPORT_MESSAGES.emailRequired]);
    expect(emailIssues(adminToolsFormSchema, { intent: "lookup", email: bad }, "email")).toEqual([AUTH_MESSAGES.invalidEmail]);
    expect(emailIssues(signUpSchema, { email: `a${atTheLimit}` }, "email")).toEqual([AUTH_MESSAGES.invalidEmail]);
  });
});
