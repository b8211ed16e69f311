// One point each for 8+ characters, a lowercase letter, an uppercase letter,
// a digit and a special character. Colour: 4+ green, 3 yellow, 2 orange, else red.

export type StrengthColour = "green" | "yellow" | "orange" | "red";

export function passwordStrength(password: string): number {
  let score = 0;
  if (password.length >= 8) score++;
  if (/[a-z]/.test(password)) score++;
  if (/[A-Z]/.test(password)) score++;
  if (/\d/.test(password)) score++;
  if (/[^A-Za-z0-9]/.test(password)) score++;
  return score;
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
