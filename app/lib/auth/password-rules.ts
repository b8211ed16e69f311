// The spec's five password rules, as data: the server's schema (lib/auth/validation.ts) scores a
// chosen password with them and the strength meter under the field lists and scores the same
// ones, so the meter can never call a password strong enough that the server refuses as weak, or
// the other way round. One point each for 8+ characters, a lowercase letter, an uppercase letter,
// a digit and a special character. Colour: 4+ green, 3 yellow, 2 orange, else red.
import { PASSWORD } from "../constants";

interface PasswordRule {
  /** What the meter's checklist says. */
  label: string;
  test: (password: string) => boolean;
}

/** The one rule the server also asks for on its own: a shorter password is refused whatever it scores. */
export const PASSWORD_LENGTH_RULE: PasswordRule = { label: `${PASSWORD.minLength}+ characters`, test: (p) => p.length >= PASSWORD.minLength };

export const PASSWORD_RULES: readonly PasswordRule[] = [
  PASSWORD_LENGTH_RULE,
  { label: "Lowercase letter", test: (p) => /[a-z]/.test(p) },
  { label: "Uppercase letter", test: (p) => /[A-Z]/.test(p) },
  { label: "Number", test: (p) => /\d/.test(p) },
  { label: "Special character", test: (p) => /[^A-Za-z0-9]/.test(p) },
];

export type StrengthColour = "green" | "yellow" | "orange" | "red";

/** The number of rules the password meets. */
export function passwordStrength(password: string): number {
  return PASSWORD_RULES.filter((rule) => rule.test(password)).length;
}

export function strengthColour(score: number): StrengthColour {
  if (score >= 4) return "green";
  if (score === 3) return "yellow";
  if (score === 2) return "orange";
  return "red";
}

export function strengthLabel(score: number): string {
  if (score >= 5) return "Strong";
  if (score === 4) return "Good";
  if (score === 3) return "Fair";
  return "Weak";
}
