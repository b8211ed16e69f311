// The shapes of a signed-in session's user (session.server.ts reads them in one statement): apart,
// so the session module stays about what it does.
import type { schema } from "../db.server";
import type { Locale } from "../locale";

type SubscriptionRow = typeof schema.subscriptions.$inferSelect;
type BudgetRow = typeof schema.budgets.$inferSelect;

export type SessionClient = "web" | "desktop";

export type SessionUser = {
  id: string;
  email: string;
  role: "user" | "admin";
  createdAt: number;
  firstName: string | null;
  lastName: string | null;
  lastLoginAt: number | null;
  lastActivityAt: number | null;
  /** Whether this account had a session before this one: "Welcome back" rather than "Welcome". */
  signedInBefore: boolean;
  /**
   * Profile fields the dashboard needs, read with the session so no page reads the profile again.
   * As of the start of the request: an action that changes them must not rely on these after it.
   */
  profile: SessionProfile;
  /**
   * The account's subscription and budget, read in the same query on a GET or HEAD, where no
   * action runs before the loaders; absent otherwise (read them: subscriptionOf, budgetOf).
   */
  accountRows?: AccountRows;
};

/**
 * Rows a signed-in page often shows, each null when the account has none. `capCount`: how many caps
 * of single models and devices the account has (ADR 0032), so a page reads them only when there are
 * any. `teams`: the account's teams by name, for the dashboard's switcher (issue 50).
 * `teamPaidUntil`: until when a team of the account has a paid plan (ADR 0037), or null.
 */
export type AccountRows = {
  subscription: SubscriptionRow | null;
  budget: BudgetRow | null;
  capCount: number;
  teams: TeamListing[];
  teamPaidUntil: number | null;
};
type TeamListing = { slug: string; name: string; role: "owner" | "admin" | "member" };

/** Whose rows a page reads: an account, with those its session's statement read when it has them. */
export type AccountRef = Pick<SessionUser, "id" | "accountRows">;

/** An account and its time zone (read with its session), whose usage a page shows in that zone. */
export type ZonedAccount = AccountRef & { profile: Pick<SessionProfile, "timeZone"> };

export type SessionProfile = {
  username: string | null;
  avatarUrl: string | null;
  phoneVerified: boolean;
  paymentMethodLast4: string | null;
  stripeCustomerId: string | null;
  earlyAccessStatus: string | null;
  earlyAccessExpiresAt: number | null;
  /** Whether Stripe says this account had a trial; null while nobody has asked (billing/trial.server.ts). */
  trialUsed: boolean | null;
  /** The account's time zone (the profile's): its days, hours and budgets are counted in it (ADR 0030). */
  timeZone: string;
  timeZoneConfirmedAt: number | null; // when the account answered the dashboard's question of its zone, or chose one (issue 48)
  locale: Locale | null; // pinned for numbers and dates (issue 48); null: the browser's
};
