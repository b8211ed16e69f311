import { useEffect, useRef } from "react";
import { data, Link, useSearchParams } from "react-router";
import type { Route } from "./+types/dashboard";
import { TabIcon } from "~/components/dashboard/icons";
import { withParam } from "~/components/modal";
import { SignOutDialog } from "~/components/dashboard/sign-out-dialog";
import { Card, cx, LinkButton, Logo } from "~/components/ui";
import { getCloudflare, requireUser } from "~/lib/auth/request.server";
import { getDb } from "~/lib/db.server";
import { getSubscription } from "~/lib/subscriptions.server";
import { DASHBOARD_TABS, parseTab, type DashboardTab } from "~/lib/dashboard-tabs";
import { loadDashboard, loadTabContent, saveBudgetAction } from "./dashboard.server";
import { AnalyticsTab, PremiumFeature } from "~/components/dashboard/analytics-tab";
import { BillingTab } from "~/components/dashboard/billing-tab";
import { BudgetTab } from "~/components/dashboard/budget-tab";
import { DebugTab } from "~/components/dashboard/debug-tab";
import { OverviewTab } from "~/components/dashboard/overview-tab";
import { UsageTab } from "~/components/dashboard/usage-tab";

export const meta = () => [{ title: "Dashboard | Modelify" }];

const TAB_LABELS: Record<DashboardTab, string> = {
  overview: "Overview",
  usage: "Usage",
  profile: "Profile",
  analytics: "Model Analytics",
  billing: "Billing",
  budget: "Budget",
  downloads: "Downloads",
  debug: "Debug",
};

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(context);
  const url = new URL(request.url);
  const requested = url.searchParams.get("tab");
  // The debug tools exist for admins only; anyone else asking for them is refused outright.
  if (requested === "debug" && user.role !== "admin") {
    throw data({ kind: "forbidden", message: "Only administrators can use the subscription tools." }, { status: 403 });
  }
  const tab = parseTab(requested, user.role);
  const db = getDb(getCloudflare(context).env.DB);
  const subscriptionRead = getSubscription(db, user.id);
  const [dashboard, content] = await Promise.all([loadDashboard(db, user, subscriptionRead), loadTabContent(tab, { request, context, db, user, url, subscriptionRead })]);
  return { tab, dashboard, content, confirmSignOut: url.searchParams.get("confirm") === "signout" };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = requireUser(context);
  return saveBudgetAction(request, getDb(getCloudflare(context).env.DB), user.id);
}

// On narrow screens the tab strip scrolls: keep the current tab in view.
function scrollActiveIntoView(nav: HTMLElement | null) {
  nav?.querySelector<HTMLElement>('[aria-current="page"]')?.scrollIntoView({ block: "nearest", inline: "center" });
}

function tabHref(tab: DashboardTab) {
  return tab === "overview" ? "/dashboard" : `/dashboard?tab=${tab}`;
}

export default function Dashboard({ loaderData, actionData }: Route.ComponentProps) {
  const { tab, dashboard, content, confirmSignOut } = loaderData;
  const mobileNav = useRef<HTMLElement>(null);
  useEffect(() => scrollActiveIntoView(mobileNav.current), [tab]);
  const [params] = useSearchParams();
  const tabs = DASHBOARD_TABS.filter((t) => t !== "debug" || dashboard.isAdmin);
  const signOutTo = withParam("/dashboard", params.toString(), "confirm", "signout");
  const cancelTo = withParam("/dashboard", params.toString(), "confirm", null);

  return (
    <div className="min-h-screen bg-slate-50">
      {/* Desktop: a narrow icon rail that expands on hover or keyboard focus. */}
      <aside
        aria-label="Dashboard"
        className="group fixed inset-y-0 left-0 z-30 hidden w-16 flex-col overflow-hidden border-r border-slate-200 bg-white transition-[width] duration-200 hover:w-64 focus-within:w-64 lg:flex"
      >
        <Link to="/" className="flex h-16 items-center px-4" aria-label="Modelify home">
          <span className="shrink-0">
            <Logo className="[&>span:last-child]:opacity-0 group-hover:[&>span:last-child]:opacity-100 group-focus-within:[&>span:last-child]:opacity-100" />
          </span>
        </Link>
        <nav className="flex-1 space-y-1 px-2 py-4">
          {tabs.map((t) => (
            <Link
              key={t}
              to={tabHref(t)}
              aria-current={t === tab ? "page" : undefined}
              className={cx(
                "flex items-center gap-3 rounded-lg px-3 py-2.5 text-sm font-medium whitespace-nowrap",
                t === tab ? "bg-brand-50 text-brand-700" : "text-slate-600 hover:bg-slate-100 hover:text-slate-900",
              )}
            >
              <TabIcon name={t} className="h-5 w-5 shrink-0" />
              <span className="opacity-0 transition-opacity group-hover:opacity-100 group-focus-within:opacity-100">{TAB_LABELS[t]}</span>
            </Link>
          ))}
        </nav>
        <div className="border-t border-slate-200 p-2">
          <div className="flex items-center gap-3 px-2 py-2">
            <span className="flex h-9 w-9 shrink-0 items-center justify-center rounded-full bg-brand-100 text-sm font-semibold text-brand-700" aria-hidden="true">
              {dashboard.sidebarName.charAt(0).toUpperCase()}
            </span>
            <div className="min-w-0 opacity-0 transition-opacity group-hover:opacity-100 group-focus-within:opacity-100">
              <p className="truncate text-sm font-semibold text-slate-900">{dashboard.sidebarName}</p>
              <p className="truncate text-xs text-slate-500">{dashboard.email}</p>
            </div>
          </div>
          <Link
            to={signOutTo}
            preventScrollReset
            className="mt-1 flex items-center gap-3 rounded-lg px-3 py-2.5 text-sm font-medium whitespace-nowrap text-slate-600 hover:bg-red-50 hover:text-red-700"
          >
            <TabIcon name="signout" className="h-5 w-5 shrink-0" />
            <span className="opacity-0 transition-opacity group-hover:opacity-100 group-focus-within:opacity-100">Sign Out</span>
          </Link>
        </div>
      </aside>

      {/* Mobile and tablet: a top bar with the account and a scrollable tab strip. */}
      <header className="sticky top-0 z-30 border-b border-slate-200 bg-white lg:hidden">
        <div className="flex h-14 items-center justify-between px-4">
          <Link to="/" aria-label="Modelify home">
            <Logo />
          </Link>
          <div className="flex items-center gap-3">
            <span className="hidden max-w-40 truncate text-sm text-slate-600 sm:block">{dashboard.email}</span>
            <Link to={signOutTo} preventScrollReset className="rounded-lg px-3 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-100">
              Sign Out
            </Link>
          </div>
        </div>
        <nav aria-label="Dashboard tabs" className="flex gap-1 overflow-x-auto px-2 pb-2" ref={mobileNav}>
          {tabs.map((t) => (
            <Link
              key={t}
              to={tabHref(t)}
              aria-current={t === tab ? "page" : undefined}
              className={cx(
                "shrink-0 rounded-lg px-3 py-1.5 text-sm font-medium",
                t === tab ? "bg-brand-50 text-brand-700" : "text-slate-600 hover:bg-slate-100",
              )}
            >
              {TAB_LABELS[t]}
            </Link>
          ))}
        </nav>
      </header>

      <main id="main" className="px-4 py-6 sm:px-6 lg:ml-16 lg:px-10 lg:py-10">
        <div className="mx-auto max-w-6xl">
          {content.tab === "overview" ? (
            <OverviewTab dashboard={dashboard} usage={content.usage} />
          ) : content.tab === "usage" ? (
            <UsageTab data={content.data} ui={content.ui} email={dashboard.email} />
          ) : content.tab === "analytics" ? (
            content.locked ? (
              <PremiumFeature />
            ) : (
              <AnalyticsTab models={content.models} shown={content.shown} recommendations={content.recommendations} category={content.category} sort={content.sort} />
            )
          ) : content.tab === "budget" ? (
            <BudgetTab
              view={actionData ? { ...content.view, editing: true, errors: actionData.errors, formError: actionData.budgetError } : content.view}
            />
          ) : content.tab === "billing" ? (
            <BillingTab billing={content.billing} />
          ) : content.tab === "debug" ? (
            <DebugTab adminEmail={dashboard.email} />
          ) : (
            <UpcomingTab tab={content.tab} />
          )}
        </div>
      </main>

      {confirmSignOut ? <SignOutDialog cancelTo={cancelTo} /> : null}
    </div>
  );
}

const UPCOMING: Record<"profile" | "downloads", string> = {
  profile: "Your name, username, pictures, contact details and security question.",
  downloads: "Installers for Windows, macOS and Linux, and your download history.",
};

function UpcomingTab({ tab }: { tab: "profile" | "downloads" }) {
  return (
    <>
      <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">{TAB_LABELS[tab]}</h1>
      <Card className="mt-8 flex flex-col items-center px-6 py-16 text-center">
        <span className="flex h-12 w-12 items-center justify-center rounded-full bg-brand-50 text-brand-600">
          <TabIcon name={tab} className="h-6 w-6" />
        </span>
        <h2 className="mt-4 text-lg font-semibold text-slate-900">Not built yet</h2>
        <p className="mt-2 max-w-md text-sm text-slate-600">{UPCOMING[tab]} This section is on its way.</p>
        <LinkButton to="/dashboard" variant="secondary" className="mt-6">
          Back to Overview
        </LinkButton>
      </Card>
    </>
  );
}
