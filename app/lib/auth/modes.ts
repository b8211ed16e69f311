export type AuthMode = "signin" | "signup" | "forgot-password";

/** The /auth page's mode from ?mode= (default signin). */
export function parseMode(value: string | null): AuthMode {
  return value === "signup" || value === "forgot-password" ? value : "signin";
}
