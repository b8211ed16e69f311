import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import { PASSWORD } from "../constants";
import { AUTH_MESSAGES as M } from "./messages";
import { PASSWORD_LENGTH_RULE, PASSWORD_RULES, passwordStrength, strengthColour } from "./password-rules";
import { changePasswordSchema, resetPasswordSchema } from "./validation";

describe("password strength: one point per rule, five rules", () => {
  it("are the spec's five rules, in the meter's words", () => {
    expect(PASSWORD_RULES.map((r) => r.label)).toEqual(["8+ characters", "Lowercase letter", "Uppercase letter", "Number", "Special character"]);
  });

  it("gives one point per rule", () => {
    expect(passwordStrength("")).toBe(0);
    expect(passwordStrength("abcdefgh")).toBe(2); // length + lowercase
    expect(passwordStrength("Abcdefgh")).toBe(3);
    expect(passwordStrength("Abcdefg1")).toBe(4);
    expect(passwordStrength("Abcdef1!")).toBe(5);
    expect(passwordStrength("A1!")).toBe(3); // short but three character classes
  });

  it("colours 4+ green, 3 yellow, 2 orange, else red", () => {
    expect(strengthColour(5)).toBe("green");
    expect(strengthColour(4)).toBe("green");
    expect(strengthColour(3)).toBe("yellow");
    expect(strengthColour(2)).toBe("orange");
    expect(strengthColour(1)).toBe("red");
    expect(strengthColour(0)).toBe("red");
  });
});

// Every mix of the four kinds of character, at lengths either side of the shortest, each kind
// drawn from an uncommon run so no sample is on the common-password list.
const KINDS = ["qxv", "ZKJ", "947", "#~;"] as const;
const samples = Array.from({ length: 2 ** KINDS.length }, (_, mask) => KINDS.filter((_, i) => mask & (1 << i)).join("")).flatMap((chars) =>
  chars ? [1, PASSWORD.minLength - 1, PASSWORD.minLength, PASSWORD.minLength + 5].map((n) => chars.repeat(n).slice(0, n)) : [],
);

function passwordErrors(schema: typeof resetPasswordSchema | typeof changePasswordSchema, password: string) {
  const form = new FormData();
  form.set("currentPassword", "Another-Old-Pass-1");
  form.set("password", password);
  form.set("confirmPassword", password);
  const submission = parseWithZod(form, { schema });
  return submission.status === "success" ? undefined : submission.error?.password;
}

describe("the meter's rules are the server's", () => {
  it.each([
    ["the reset page", resetPasswordSchema],
    ["the profile's password change", changePasswordSchema],
  ] as const)("%s accepts exactly the passwords the meter scores as enough, and says why it refuses the others", (_, schema) => {
    expect(samples.length).toBeGreaterThan(50);
    let accepted = 0;
    for (const password of samples) {
      const met = PASSWORD_RULES.filter((r) => r.test(password)).length;
      const expected = !PASSWORD_LENGTH_RULE.test(password) ? [M.passwordTooShort] : met < PASSWORD.strengthThreshold ? [M.passwordTooWeak] : undefined;
      if (!expected) accepted++;
      expect(passwordErrors(schema, password), password).toEqual(expected);
    }
    // Both sides of the threshold were tried.
    expect(accepted).toBeGreaterThan(0);
    expect(accepted).toBeLessThan(samples.length);
  });
});
