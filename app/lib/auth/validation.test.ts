import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import { AUTH_MESSAGES as M } from "./messages";
import { PASSWORD } from "../constants";
import { SECURITY_QUESTIONS } from "./security-questions";
import { forgotPasswordSchema, normalisePhone, resetPasswordSchema, signInSchema, signUpSchema } from "./validation";

function errorsOf(schema: Parameters<typeof parseWithZod>[1]["schema"], fields: Record<string, string>) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  const submission = parseWithZod(form, { schema });
  return submission.status === "success" ? {} : (submission.error ?? {});
}

const validSignUp = {
  intent: "signup",
  firstName: "Ada",
  lastName: "Lovelace",
  email: "ada@example.com",
  phoneNumber: "5551234567",
  securityQuestion: "favorite_food",
  securityAnswer: "pasta",
  password: "Sunny-Day-42",
  confirmPassword: "Sunny-Day-42",
};

describe("sign-in and sign-up rules", () => {
  it("needs an @ in the e-mail and 8+ characters of password", () => {
    expect(errorsOf(signInSchema, { intent: "signin", email: "ada.example.com", password: "12345678" })).toEqual({ email: [M.invalidEmail] });
    expect(errorsOf(signInSchema, { intent: "signin", email: "ada@example.com", password: "1234567" })).toEqual({ password: [M.passwordTooShort] });
    expect(errorsOf(signInSchema, { intent: "signin", email: "ada@example.com", password: "12345678" })).toEqual({});
    expect(errorsOf(forgotPasswordSchema, { intent: "forgot-password", email: "" })).toEqual({ email: [M.invalidEmail] });
  });

  it("accepts a valid sign-up and normalises the e-mail", () => {
    const form = new FormData();
    for (const [k, v] of Object.entries({ ...validSignUp, email: " Ada@Example.COM " })) form.set(k, v);
    const submission = parseWithZod(form, { schema: signUpSchema });
    expect(submission.status).toBe("success");
    if (submission.status === "success") expect(submission.value.email).toBe("ada@example.com");
  });

  it.each([
    [{ firstName: "" }, "firstName", M.firstNameRequired],
    [{ firstName: "   " }, "firstName", M.firstNameRequired],
    [{ lastName: "" }, "lastName", M.lastNameRequired],
    [{ phoneNumber: "  555123456  " }, "phoneNumber", M.invalidPhone], // 9 after trimming
    [{ securityQuestion: "" }, "securityQuestion", M.securityQuestionRequired],
    [{ securityQuestion: "favourite_band" }, "securityQuestion", M.securityQuestionRequired],
    [{ securityAnswer: "ab" }, "securityAnswer", M.securityAnswerTooShort],
    [{ password: "alllowercase", confirmPassword: "alllowercase" }, "password", M.passwordTooWeak],
    [{ password: "Password1!", confirmPassword: "Password1!" }, "password", M.commonPassword],
    [{ confirmPassword: "Sunny-Day-43" }, "confirmPassword", M.passwordsDoNotMatch],
    [{ initial: "ABCDEFGHIJK" }, "initial", M.middleInitialTooLong],
  ])("%j → %s: %s", (override, field, message) => {
    expect(errorsOf(signUpSchema, { ...validSignUp, ...override })[field]).toEqual([message]);
  });

  it("allows a phone of exactly 10 characters and a 10-character initial", () => {
    expect(errorsOf(signUpSchema, { ...validSignUp, phoneNumber: " 5551234567 ", initial: "ABCDEFGHIJ" })).toEqual({});
  });

  it("offers the five security questions", () => {
    expect(SECURITY_QUESTIONS.map((q) => q.label)).toEqual([
      "What is your favorite color?",
      "What was the name of your first pet?",
      "What was the make of your first car?",
      "What is your mother's maiden name?",
      "What is your favorite food?",
    ]);
  });

  it("prefixes +1 to numbers without +", () => {
    expect(normalisePhone("(555) 123-4567")).toBe("+15551234567");
    expect(normalisePhone("+44 20 7946 0958")).toBe("+442079460958");
  });
});

describe("reset password page rules", () => {
  it("requires both fields, 8+ characters and a match", () => {
    expect(errorsOf(resetPasswordSchema, {})).toEqual({ password: [M.resetBothRequired], confirmPassword: [M.resetBothRequired] });
    expect(errorsOf(resetPasswordSchema, { password: "abc12", confirmPassword: "abc12" }).password).toEqual([M.passwordTooShort]);
    expect(errorsOf(resetPasswordSchema, { password: "New-Secret-77", confirmPassword: "New-Secret-78" })).toEqual({
      confirmPassword: [M.passwordsDoNotMatch],
    });
    expect(errorsOf(resetPasswordSchema, { password: "New-Secret-77", confirmPassword: "New-Secret-77" })).toEqual({});
  });

  it("refuses every password sign-up refuses, with sign-up's words (one rule for a chosen password)", () => {
    for (const password of ["alllowercase", "ABCDEFGHIJ", "Password1!", "abc12"]) {
      const signUp = errorsOf(signUpSchema, { ...validSignUp, password, confirmPassword: password }).password;
      expect(signUp, password).toBeDefined();
      expect(errorsOf(resetPasswordSchema, { password, confirmPassword: password }).password, password).toEqual(signUp);
    }
  });

  it("asks for sign-in's 8 characters with sign-in's words, so nobody sets a password they cannot sign in with", () => {
    expect(M.passwordTooShort).toContain(String(PASSWORD.minLength));
    expect(errorsOf(resetPasswordSchema, { password: "Abc-123", confirmPassword: "Abc-123" }).password).toEqual([M.passwordTooShort]);
  });
});
