import { eq } from "drizzle-orm";
import { data, redirect, type RouterContextProvider } from "react-router";
import { z } from "~/lib/zod";
import { CATEGORIES, type CategoryFilter } from "~/components/dashboard/analytics-tab";
import type { BudgetView } from "~/components/dashboard/budget-tab";
import { ENGAGEMENT, METRICS, USAGE_VIEWS, type UsageUi } from "~/components/dashboard/usage-tab";
import { billingDeps } from "~/lib/billing/deps.server";
import type { DashboardTab } from "~/lib/dashboard-tabs";
import { readForm } from "~/lib/http.server";
import { modelAnalytics, overviewUsage, parseRange, usageTab } from "~/lib/usage/analytics.server";
import { budgetFormSchema } from "~/lib/usage/budget";
import { getBudget, saveBudget, spendSince } from "~/lib/usage/budget.server";
import { dayKey, monthKey } from "~/lib/usage/dates";
import { recommend, sortModels, SORTS, type SortKey } from "~/lib/usage/models";
import { loadBilling, parseBillingView } from "./dashboard.billing.server";
import type { SessionUser } from "~/lib/auth/session.server";
import { PLAN } from "~/lib/constants";
import { schema, type Db } from "~/lib/db.server";
import { formatDate } from "~/lib/format";
import { displayName, emailLocalPart } from "~/lib/names";
import { countsAsActive, statusLabel } from "~/lib/subscription-rules";
import type { SubscriptionRow } from "~/lib/subscriptions.server";

export async function loadDashboard(db: Db, user: SessionUser, subscriptionRead: Promise<SubscriptionRow | undefined>, now = Date.now()) {
  const [profile, subscription] = await Promise.all([db.query.userProfiles.findFirst({ where: eq(schema.userProfiles.userId, user.id) }), subscriptionRead]);
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

// subscriptionRead: the one read of the user's subscription, shared with loadDashboard.
type TabArgs = { request: Request; context: Readonly<RouterContextProvider>; db: Db; user: SessionUser; url: URL; subscriptionRead: Promise<SubscriptionRow | undefined> };

function pick<T extends Record<string, unknown>>(options: T, value: string | null, fallback: keyof T & string): keyof T & string {
  return value !== null && Object.hasOwn(options, value) ? value : fallback;
}

/** Only the data the open tab shows. */
export async function loadTabContent(tab: DashboardTab, { request, context, db, user, url, subscriptionRead }: TabArgs) {
  const q = (name: string) => url.searchParams.get(name);
  switch (tab) {
    case "overview":
      return { tab, usage: await overviewUsage(db, user.id) } as const;
    case "usage": {
      const ui: UsageUi = { metric: pick(METRICS, q("metric"), "spend"), engagement: pick(ENGAGEMENT, q("engagement"), "activity"), view: pick(USAGE_VIEWS, q("view"), "user") };
      return { tab, ui, data: await usageTab(db, user.id, parseRange(q("range"))) } as const;
    }
    case "analytics": {
      if (!countsAsActive(await subscriptionRead, Date.now())) return { tab, locked: true } as const;
      const models = await modelAnalytics(db, user.id);
      const category = pick(CATEGORIES, q("category"), "all") as CategoryFilter;
      const sort = pick(SORTS, q("sort"), "usage") as SortKey;
      const shown = sortModels(category === "all" ? models : models.filter((m) => m.category === category), sort);
      return { tab, locked: false, models, shown, category, sort, recommendations: recommend(models, 30) } as const;
    }
    case "budget": {
      const now = Date.now();
      const [settings, month, today] = await Promise.all([getBudget(db, user.id), spendSince(db, user.id, `${monthKey(now)}-01`), spendSince(db, user.id, dayKey(now))]);
      const view: BudgetView = {
        settings,
        spent: { month: month / 1e6, today: today / 1e6 },
        editing: q("edit") === "1",
        prefillDefaults: q("defaults") === "1",
        saved: q("saved") === "1",
        errors: null,
        formError: null,
      };
      return { tab, view } as const;
    }
    case "billing":
      return { tab, billing: await loadBilling(billingDeps(request, context), user, parseBillingView(q("view")), subscriptionRead) } as const;
    case "debug":
      return { tab } as const;
    default:
      return { tab } as const;
  }
}

/** POST /dashboard (budget form): validate, store, then back to the budget view with its message. */
export async function saveBudgetAction(request: Request, db: Db, userId: string) {
  const read = await readForm(request);
  if (!read.ok) return data({ budgetError: read.message, errors: null }, { status: read.status });
  if (read.formData.get("intent") !== "save-budget") return data({ budgetError: "Unknown action.", errors: null }, { status: 400 });
  const parsed = budgetFormSchema.safeParse(Object.fromEntries(read.formData));
  if (!parsed.success) {
    return data({ budgetError: "Failed to save budget settings. Please try again.", errors: z.flattenError(parsed.error).fieldErrors as Record<string, string[] | undefined> }, { status: 400 });
  }
  try {
    await saveBudget(db, userId, parsed.data);
  } catch (error) {
    console.error(JSON.stringify({ event: "budget_save_failed", error: String(error) }));
    return data({ budgetError: "Failed to save budget settings. Please try again.", errors: null }, { status: 503 });
  }
  throw redirect("/dashboard?tab=budget&saved=1");
}
