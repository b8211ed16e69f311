// The account half of the dashboard's overview: greeting, subscription card and insights.
import type { SessionUser } from "../auth/session.server";
import { subscriptionView, type SubscriptionView } from "../billing/subscription-view";
import type { Db } from "../db.server";
import { displayName } from "../names";
import { activationOf } from "../early-access/activation.server";
import { subscriptionOf } from "../subscriptions.server";

export type AccountOverview = {
  greetingName: string;
  /** "Welcome" on the account's first session, "Welcome back" after. */
  greeting: "Welcome" | "Welcome back";
  subscription: SubscriptionView;
  /** Early access or an active subscription (ADR 0012). */
  activated: boolean;
  earlyAccess: { active: boolean; expiresAt: number | null };
  /** The last sign-in and the account's start as instants, for the page to write in its locale and zone. */
  insights: { plan: string; lastLoginAt: number | null; createdAt: number | null; profileCompletion: "Complete" | "Incomplete" };
};

export async function accountOverview(db: Db, user: SessionUser, now = Date.now()): Promise<AccountOverview> {
  // The session's query already read the profile fields this needs (names, billing, early access).
  const profile = user.profile;
  const subscription = await subscriptionOf(db, user);
  const view = subscriptionView(subscription, { storedLast4: profile.paymentMethodLast4, hasCustomer: Boolean(profile.stripeCustomerId) }, now);
  const activation = activationOf(subscription, profile, now);
  return {
    greetingName: displayName(user),
    greeting: user.signedInBefore ? "Welcome back" : "Welcome",
    subscription: view,
    activated: activation.activated,
    earlyAccess: { active: activation.earlyAccess, expiresAt: activation.earlyAccessExpiresAt },
    insights: {
      plan: view.active ? "Active" : activation.earlyAccess ? "Early Access" : "Free Plan",
      lastLoginAt: user.lastLoginAt || null,
      createdAt: user.createdAt || null,
      // Complete once the profile page has nothing left to ask: names, a username, a verified phone.
      profileCompletion: user.firstName && user.lastName && profile.username && profile.phoneVerified ? "Complete" : "Incomplete",
    },
  };
}
