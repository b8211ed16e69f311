import { useEffect, useRef } from "react";
import { data, Link, useSearchParams } from "react-router";
import type { Route } from "./+types/dashboard";
import { TabIcon } from "~/components/dashboard/icons";
import { SignOutDialog } from "~/components/dashboard/sign-out-dialog";
import { Card, cx, LinkButton, Logo } from "~/components/ui";
import { getCloudflare, requireUser } from "~/lib/auth/request.server";
import { getDb } from "~/lib/db.server";
import { DASHBOARD_TABS, parseTab, type DashboardTab } from "~/lib/dashboard-tabs";
import { loadDashboard, type DashboardData } from "./dashboard.server";
import { loadBilling, parseBillingView } from "./dashboard.billing.server";
import { billingDeps } from "~/lib/billing/deps.server";
import { BillingTab } from "~/components/dashboard/billing-tab";
import { DebugTab } from "~/components/dashboard/debug-tab";

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
  const [dashboard, billing] = await Promise.all([
    loadDashboard(getDb(getCloudflare(context).env.DB), user),
    tab === "billing" ? loadBilling(billingDeps(request, context), user, parseBillingView(url.searchParams.get("view"))) : null,
  ]);
  return { tab, dashboard, billing, confirmSignOut: url.searchParams.get("confirm") === "signout" };
}

// On narrow screens the tab strip scrolls: keep the current tab in view.
function scrollActiveIntoView(nav: HTMLElement | null) {
  nav?.querySelector<HTMLElement>('[aria-current="page"]')?.scrollIntoView({ block: "nearest", inline: "center" });
}

function tabHref(tab: DashboardTab) {
  return tab === "overview" ? "/dashboard" : `/dashboard?tab=${tab}`;
}

export default function Dashboard({ loaderData }: Route.ComponentProps) {
  const { tab, dashboard, billing, confirmSignOut } = loaderData;
  const mobileNav = useRef<HTMLElement>(null);
  useEffect(() => scrollActiveIntoView(mobileNav.current), [tab]);
  const [params] = useSearchParams();
  const tabs = DASHBOARD_TABS.filter((t) => t !== "debug" || dashboard.isAdmin);
  const withConfirm = new URLSearchParams(params);
  withConfirm.set("confirm", "signout");
  const withoutConfirm = new URLSearchParams(params);
  withoutConfirm.delete("confirm");
  const cancelTo = `/dashboard${withoutConfirm.size ? `?${withoutConfirm}` : ""}`;

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
            to={`/dashboard?${withConfirm}`}
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
            <Link to={`/dashboard?${withConfirm}`} preventScrollReset className="rounded-lg px-3 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-100">
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
          {tab === "overview" ? (
            <Overview dashboard={dashboard} />
          ) : tab === "billing" ? (
            billing && <BillingTab billing={billing} />
          ) : tab === "debug" ? (
            <DebugTab adminEmail={dashboard.email} />
          ) : (
            <UpcomingTab tab={tab} />
          )}
        </div>
      </main>

      {confirmSignOut ? <SignOutDialog cancelTo={cancelTo} /> : null}
    </div>
  );
}

function Overview({ dashboard }: { dashboard: DashboardData }) {
  const { subscription, insights } = dashboard;
  return (
    <>
      <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">{`Welcome back, ${dashboard.greetingName}`}</h1>
      <p className="mt-1 text-sm text-slate-600">Here is your Modelify account at a glance.</p>

      <div className="mt-8 grid items-start gap-6 lg:grid-cols-3">
        <Card className="p-6 lg:col-span-2">
          <div className="flex items-start justify-between gap-4">
            <div>
              <h2 className="text-sm font-medium text-slate-500">Subscription</h2>
              <p className="mt-2 text-xl font-semibold text-slate-900">{subscription.plan}</p>
            </div>
            <span
              data-testid="subscription-status"
              className={cx(
                "rounded-full px-3 py-1 text-xs font-semibold",
                subscription.active ? "bg-emerald-50 text-emerald-700" : "bg-slate-100 text-slate-700",
              )}
            >
              {subscription.status}
            </span>
          </div>
          <dl className="mt-6 grid gap-4 sm:grid-cols-2">
            <div className="rounded-xl bg-slate-50 p-4">
              <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">Next billing</dt>
              <dd className="mt-1 text-sm font-semibold text-slate-900">{subscription.nextBilling}</dd>
            </div>
            <div className="rounded-xl bg-slate-50 p-4">
              <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">Card on file</dt>
              <dd className="mt-1 text-sm font-semibold text-slate-900">{subscription.cardOnFile}</dd>
            </div>
          </dl>
          {subscription.active ? null : (
            <LinkButton to="/pricing" className="mt-6">
              Get Subscription
            </LinkButton>
          )}
        </Card>

        <Card className="p-6">
          <h2 className="text-sm font-medium text-slate-500">Account Insights</h2>
          <dl className="mt-4 space-y-3 text-sm">
            <Insight label="Plan" value={insights.plan} />
            <Insight label="Last login" value={insights.lastLogin} />
            <Insight label="Account created" value={insights.accountCreated} />
            <Insight label="Profile" value={insights.profileCompletion} />
          </dl>
          <div className="mt-5 rounded-xl bg-brand-50 p-4 text-sm text-brand-900">
            <p className="font-semibold">Quick tip</p>
            <p className="mt-1">Add your provider API keys in the desktop app under Settings, then API Keys. They never leave your device.</p>
          </div>
        </Card>
      </div>
    </>
  );
}

function Insight({ label, value }: { label: string; value: string }) {
  return (
    <div className="flex items-center justify-between gap-4">
      <dt className="text-slate-500">{label}</dt>
      <dd className="font-semibold text-slate-900">{value}</dd>
    </div>
  );
}

const UPCOMING: Record<Exclude<DashboardTab, "overview" | "billing" | "debug">, string> = {
  usage: "Spend, tokens and requests over time, per model and provider, with CSV export.",
  profile: "Your name, username, pictures, contact details and security question.",
  analytics: "Per-model performance, cost efficiency and recommendations from your own usage.",
  budget: "Monthly and daily budgets with alerts before you overspend.",
  downloads: "Installers for Windows, macOS and Linux, and your download history.",
};

function UpcomingTab({ tab }: { tab: Exclude<DashboardTab, "overview" | "billing" | "debug"> }) {
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
