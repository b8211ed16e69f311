import { eq } from "drizzle-orm";
import type { SessionUser } from "~/lib/auth/session.server";
import { PLAN } from "~/lib/constants";
import type { Db } from "~/lib/db.server";
import { schema } from "~/lib/db.server";
import { formatDate } from "~/lib/format";
import { displayName, emailLocalPart } from "~/lib/names";
import { countsAsActive, statusLabel } from "~/lib/subscription-rules";
import { getSubscription } from "~/lib/subscriptions.server";

export async function loadDashboard(db: Db, user: SessionUser, now = Date.now()) {
  const [profile, subscription] = await Promise.all([
    db.query.userProfiles.findFirst({ where: eq(schema.userProfiles.userId, user.id) }),
    getSubscription(db, user.id),
  ]);
  const active = countsAsActive(subscription, now);
  const paidStatus = subscription?.status === "active" || subscription?.status === "trial";
  const periodEnd = subscription?.status === "trial" ? (subscription.trialEnd ?? subscription.currentPeriodEnd) : subscription?.currentPeriodEnd;

  let nextBilling: string;
  if (paidStatus && periodEnd) nextBilling = formatDate(periodEnd);
  else if (subscription?.status === "active") nextBilling = "Loading...";
  else nextBilling = "Subscribe to access features";

  let cardOnFile: string;
  if (profile?.paymentMethodLast4) cardOnFile = `•••• ${profile.paymentMethodLast4}`;
  else if (profile?.stripeCustomerId && paidStatus) cardOnFile = "Payment method on file";
  else cardOnFile = "No payment method";

  const profileComplete = Boolean(profile?.firstName && profile?.lastName && profile?.phoneNumber);

  return {
    sidebarName: emailLocalPart(user.email),
    email: user.email,
    greetingName: displayName({ firstName: profile?.firstName ?? user.firstName, lastName: profile?.lastName ?? user.lastName, email: user.email }),
    isAdmin: user.role === "admin",
    subscription: {
      status: statusLabel(subscription),
      active,
      plan: paidStatus ? `${PLAN.name} - $${PLAN.priceUsd}/month` : "No active subscription",
      nextBilling,
      cardOnFile,
    },
    insights: {
      plan: active ? "Active" : "Free Plan",
      lastLogin: profile?.lastLoginAt ? formatDate(profile.lastLoginAt) : "Today",
      accountCreated: user.createdAt ? formatDate(user.createdAt) : "Recently",
      profileCompletion: profileComplete ? "Complete" : "Incomplete",
    },
  };
}

export type DashboardData = Awaited<ReturnType<typeof loadDashboard>>;
