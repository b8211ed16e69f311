// The account half of the dashboard's overview: greeting, subscription card and insights.
import { eq } from "drizzle-orm";
import type { SessionUser } from "../auth/session.server";
import { subscriptionView, type SubscriptionView } from "../billing/subscription-view";
import { schema, type Db } from "../db.server";
import { formatDate } from "../format";
import { displayName } from "../names";
import { activationOf } from "../early-access/activation.server";
import { earlyAccessColumns } from "../early-access/keys.server";
import { getSubscription } from "../subscriptions.server";

export type AccountOverview = {
  greetingName: string;
  subscription: SubscriptionView;
  /** Spec §4: early access or an active subscription. */
  activated: boolean;
  earlyAccess: { active: boolean; expiresAt: number | null };
  insights: { plan: string; lastLogin: string; accountCreated: string; profileCompletion: "Complete" | "Incomplete" };
};

export async function accountOverview(db: Db, user: SessionUser, now = Date.now()): Promise<AccountOverview> {
  // The session already carries names and login times; only billing fields need the profile.
  const [profile, subscription] = await Promise.all([
    db.query.userProfiles.findFirst({
      where: eq(schema.userProfiles.userId, user.id),
      columns: {
        paymentMethodLast4: true,
        stripeCustomerId: true,
        username: true,
        phoneVerified: true,
        ...earlyAccessColumns,
      },
    }),
    getSubscription(db, user.id),
  ]);
  const view = subscriptionView(subscription, { storedLast4: profile?.paymentMethodLast4 ?? null, hasCustomer: Boolean(profile?.stripeCustomerId) }, now);
  const activation = activationOf(subscription, profile, now);
  return {
    greetingName: displayName(user),
    subscription: view,
    activated: activation.activated,
    earlyAccess: { active: activation.earlyAccess, expiresAt: activation.earlyAccessExpiresAt },
    insights: {
      plan: view.active ? "Active" : activation.earlyAccess ? "Early Access" : "Free Plan",
      lastLogin: user.lastLoginAt ? formatDate(user.lastLoginAt) : "Today",
      accountCreated: user.createdAt ? formatDate(user.createdAt) : "Recently",
      // Complete once the profile page has nothing left to ask: names, a username, a verified phone.
      profileCompletion: user.firstName && user.lastName && profile?.username && profile.phoneVerified ? "Complete" : "Incomplete",
    },
  };
}
