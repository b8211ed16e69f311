export type AuthMode = "signin" | "signup" | "forgot-password";

/** The /auth page's mode from ?mode= (default signin). */
export function parseMode(value: string | null): AuthMode {
  return value === "signup" || value === "forgot-password" ? value : "signin";
}

/** The first page after a password reset: the account's ways in, to check and remove (issue 45). */
export const AFTER_RESET = "/dashboard/profile/access?after=reset";

/** "Confirm it's you" (issue 45): where a change to the account's ways in sends a session without a recent proof. */
const CONFIRM_PATH = "/dashboard/profile/confirm";

/** A dashboard path to come back to after confirming; anything else comes back to the profile. */
export function safeNext(next: string | null): string {
  return next && /^\/dashboard(\/[\w\-/]*)?([?#][\w\-=&%#.]*)?$/.test(next) ? next : "/dashboard/profile";
}

/** The confirm page, coming back to `next`. */
export const confirmUrl = (next: string) => `${CONFIRM_PATH}?next=${encodeURIComponent(safeNext(next))}`;

/** A card's form answer: back to the page it was on (`next`, a dashboard path), with its outcome in the query. */
export function backWithOutcome(next: string | null, key: string, outcome: string, anchor?: string): string {
  const [path = "/dashboard/profile"] = safeNext(next).split(/[?#]/);
  return `${path}?${key}=${encodeURIComponent(outcome)}${anchor ? `#${anchor}` : ""}`;
}
