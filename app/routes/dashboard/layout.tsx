// The dashboard's frame: sidebar (each tab's icon and label, from 1024 px), the tab menu below that,
// account and sign-out. Each tab is a child route with its own loader, action and error boundary.
import { type ReactNode, useEffect } from "react";
import { isRouteErrorResponse, Link, NavLink, Outlet, redirect, type ShouldRevalidateFunctionArgs, useLocation, useRouteError } from "react-router";
import type { Route } from "./+types/layout";
import { TabIcon } from "~/components/dashboard/icons";
import { SignOutDialog } from "~/components/dashboard/sign-out-dialog";
import { useMenuDisclosure } from "~/components/menu-disclosure";
import { withParam } from "~/components/modal";
import { type SwitcherTeam, TeamSwitcher } from "~/components/dashboard/team-switcher";
import { Card, ChevronDownIcon, Logo, ReloadLink } from "~/components/ui";
import { listTeamsOf } from "~/lib/teams/teams.server";
import { app } from "~/server/context.server";
import { accountInitials, accountName } from "~/lib/names";
import { requireUser } from "~/server/auth.server";
import { pageMeta } from "~/lib/site/meta";

export const meta = () => pageMeta("Dashboard | Modelify");

type Tab = { path: string; label: string; icon: string; adminOnly?: boolean };

const TABS: Tab[] = [
  { path: "/dashboard", label: "Overview", icon: "overview" },
  { path: "/dashboard/usage", label: "Usage", icon: "usage" },
  { path: "/dashboard/usage/requests", label: "Request Log", icon: "requests" },
  { path: "/dashboard/profile", label: "Profile", icon: "profile" },
  { path: "/dashboard/analytics", label: "Model Analytics", icon: "analytics" },
  { path: "/dashboard/billing", label: "Billing", icon: "billing" },
  { path: "/dashboard/budget", label: "Budget", icon: "budget" },
  { path: "/dashboard/alerts", label: "Alerts", icon: "alerts" },
  { path: "/dashboard/downloads", label: "Downloads", icon: "downloads" },
  { path: "/dashboard/api-keys", label: "API Keys", icon: "key" },
  { path: "/dashboard/admin", label: "Admin", icon: "debug", adminOnly: true },
  { path: "/dashboard/admin/early-access", label: "Early Access", icon: "key", adminOnly: true },
  { path: "/dashboard/admin/support", label: "Support", icon: "support", adminOnly: true },
  { path: "/dashboard/admin/funnel", label: "Funnel", icon: "funnel", adminOnly: true },
  { path: "/dashboard/admin/dead-letters", label: "Dead Letters", icon: "deadletters", adminOnly: true },
  { path: "/dashboard/admin/teams", label: "All Teams", icon: "team", adminOnly: true },
];

// The single-page app's tab names (?tab=…, still in e-mails, bookmarks and Stripe's cancel URL).
const LEGACY_TABS: Record<string, string> = {
  overview: "/dashboard",
  usage: "/dashboard/usage",
  profile: "/dashboard/profile",
  analytics: "/dashboard/analytics",
  billing: "/dashboard/billing",
  budget: "/dashboard/budget",
  downloads: "/dashboard/downloads",
  debug: "/dashboard/admin",
  admin: "/dashboard/admin",
};

/** /dashboard?tab=billing&view=invoices → /dashboard/billing?view=invoices; an unknown tab → the overview. */
export function legacyTabRedirect(url: URL): string | null {
  const tab = url.searchParams.get("tab");
  if (tab === null) return null;
  const params = new URLSearchParams(url.search);
  params.delete("tab");
  const path = Object.hasOwn(LEGACY_TABS, tab) ? LEGACY_TABS[tab]! : "/dashboard";
  const query = params.toString();
  return `${path}${query ? `?${query}` : ""}${url.hash}`;
}

// `url`, not `request.url`: React Router hands loaders a navigation's data request as it came
// (`/dashboard/billing.data`), and `url` is the page's own address.
export async function loader({ url, context }: Route.LoaderArgs) {
  if (url.pathname === "/dashboard") {
    const target = legacyTabRedirect(url);
    if (target) throw redirect(target);
  }
  const user = requireUser(context);
  const names = { firstName: user.firstName, lastName: user.lastName, username: user.profile.username, email: user.email };
  // The session's statement read the account's teams on a GET; a form's answer reads them again.
  const teams: SwitcherTeam[] = user.accountRows?.teams ?? (await listTeamsOf(app(context).db, user.id));
  const isAdmin = user.role === "admin";
  return {
    account: { name: accountName(names), initials: accountInitials(names), avatarUrl: user.profile.avatarUrl },
    email: user.email,
    isAdmin,
    teams: teams.map(({ slug, name }) => ({ slug, name })),
    place: placeOf(tabsFor(isAdmin), teams, url.pathname),
  };
}

/**
 * The tab menu's label is the loader's (placeOf, kept out of the browser's JavaScript), so the
 * loader answers every change of page, not only a change of the layout's own address: it reads
 * the session's rows already loaded, nothing more.
 */
export function shouldRevalidate({ currentUrl, nextUrl, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return defaultShouldRevalidate || currentUrl.pathname !== nextUrl.pathname;
}

const tabsFor = (isAdmin: boolean) => TABS.filter((t) => !t.adminOnly || isAdmin);

export default function DashboardLayout({ loaderData }: Route.ComponentProps) {
  const { account, email, isAdmin, teams, place } = loaderData;
  const { pathname, search } = useLocation();
  const tabs = tabsFor(isAdmin);
  const confirmSignOut = new URLSearchParams(search).get("confirm") === "signout";
  const signOutTo = withParam(pathname, search, "confirm", "signout");
  const cancelTo = withParam(pathname, search, "confirm", null);

  return (
    <div className="min-h-screen bg-slate-50">
      <Sidebar tabs={tabs} account={account} email={email} signOutTo={signOutTo} teams={teams} current={pathname} />
      <MobileHeader tabs={tabs} current={pathname} email={email} signOutTo={signOutTo} teams={teams} place={place} />

      <main id="main" className="px-4 py-6 sm:px-6 lg:ml-64 lg:px-8 lg:py-10 xl:px-10">
        {/* A size container: the tabs' grids follow the width they have (@2xl:, @4xl:...), not the
            window's, which from 1024 px includes the side rail (a 1024 px window leaves them about
            what a 768 px tablet does). */}
        <div className="@container mx-auto max-w-6xl">
          <Outlet />
        </div>
      </main>

      {confirmSignOut ? <SignOutDialog cancelTo={cancelTo} /> : null}
    </div>
  );
}

type FrameProps = { tabs: Tab[]; current: string; email: string; signOutTo: string; teams: SwitcherTeam[] };

/** A tab's link: NavLink marks the current page's (`aria-current`, its class) when the address is exactly the tab's. */
function TabLink({ tab, classes, onClick, children }: { tab: Tab; classes: [active: string, idle: string]; onClick?: () => void; children: ReactNode }) {
  return (
    <NavLink to={tab.path} end className={({ isActive }) => (isActive ? classes[0] : classes[1])} onClick={onClick}>
      {children}
    </NavLink>
  );
}

/** From 1024 px: a rail with each tab's icon and its label beside it (no hover needed to learn where Billing is, and touch screens see it too). */
type Account = { name: string; initials: string; avatarUrl: string | null };

function Sidebar({ tabs, account, email, signOutTo, teams, current }: FrameProps & { account: Account }) {
  return (
    <aside aria-label="Dashboard" className="fixed inset-y-0 left-0 z-30 hidden w-64 flex-col overflow-y-auto border-r border-slate-200 bg-white lg:flex">
      <Link to="/" className="flex h-16 items-center px-4" aria-label="Modelify home">
        <Logo />
      </Link>
      <TeamSwitcher teams={teams} pathname={current} />
      <nav aria-label="Tabs" className="flex-1 space-y-1 px-2 py-4">
        {tabs.map((t) => (
          <TabLink key={t.path} tab={t} classes={["rail-link rail-link-active", "rail-link rail-link-idle"]}>
            <TabIcon name={t.icon} className="h-5 w-5 shrink-0" />
            <span>{t.label}</span>
          </TabLink>
        ))}
      </nav>
      <div className="border-t border-slate-200 p-2">
        <div className="flex items-center gap-3 px-2 py-2">
          {/* Beside the name it pictures: nothing more to say to a screen reader. */}
          {account.avatarUrl ? (
            <img src={account.avatarUrl} alt="" className="h-9 w-9 shrink-0 rounded-full bg-slate-100 object-cover" data-testid="sidebar-avatar" />
          ) : (
            <span
              className="flex h-9 w-9 shrink-0 items-center justify-center rounded-full bg-brand-100 text-sm font-semibold text-brand-700"
              aria-hidden="true"
            >
              {account.initials}
            </span>
          )}
          <div className="min-w-0">
            <p className="truncate text-sm font-semibold text-slate-900" data-testid="sidebar-name">
              {account.name}
            </p>
            <p className="truncate text-xs text-slate-500">{email}</p>
          </div>
        </div>
        <Link to={signOutTo} preventScrollReset className="rail-link mt-1 text-slate-600 hover:bg-red-50 hover:text-red-700">
          <TabIcon name="signout" className="h-5 w-5 shrink-0" />
          <span>Sign Out</span>
        </Link>
      </div>
    </aside>
  );
}

/** The tab a page belongs to: its own, else the one it is under (two-factor is the profile's). */
function tabOf(tabs: Tab[], current: string): Tab | undefined {
  const path = current.toLowerCase();
  return tabs.filter((t) => path === t.path || path.startsWith(`${t.path}/`)).sort((a, b) => b.path.length - a.path.length)[0];
}

/**
 * What the tab menu's button names: a team's pages are no tab (Overview's path is their prefix, so
 * tabOf would say "Overview"), they are the team's, or the list of teams.
 */
type Place = { label: string; icon: string };

function placeOf(tabs: Tab[], teams: SwitcherTeam[], current: string): Place {
  const team = teams.find((t) => `${current}/`.startsWith(`/dashboard/teams/${t.slug}/`));
  if (team) return { label: team.name, icon: "team" };
  if (current.startsWith("/dashboard/teams")) return { label: "Teams", icon: "teams" };
  return tabOf(tabs, current) ?? { label: "Dashboard", icon: "overview" };
}

/**
 * Below 1024 px: a top bar with the account, and under it one full-width button naming the tab
 * you are on and saying "All tabs", which opens every tab as a grid of links (a phone has room for
 * three or four tab names in a row, and a strip that scrolls sideways hid Billing, Budget and
 * Downloads; issue 46). A <details> disclosure (components/menu-disclosure.ts): it works without
 * JavaScript, by touch and by keyboard.
 */
function MobileHeader({ tabs, current, email, signOutTo, teams, place }: FrameProps & { place: Place }) {
  const menu = useMenuDisclosure();
  return (
    <header className="sticky top-0 z-30 border-b border-slate-200 bg-white lg:hidden">
      <div className="flex h-14 items-center justify-between px-4">
        <Link to="/" aria-label="Modelify home">
          <Logo />
        </Link>
        <div className="flex items-center gap-3">
          <span className="hidden max-w-40 truncate text-sm text-slate-600 sm:block">{email}</span>
          <Link to={signOutTo} preventScrollReset className="rounded-lg px-3 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-100">
            Sign Out
          </Link>
        </div>
      </div>
      <details ref={menu.ref} className="group relative px-4 pb-3" data-testid="tab-menu">
        <summary className="flex cursor-pointer list-none items-center justify-between gap-3 rounded-lg border border-slate-200 bg-white px-3 py-2 text-sm font-medium text-slate-900 hover:bg-slate-50 [&::-webkit-details-marker]:hidden">
          <span className="flex min-w-0 items-center gap-2">
            <TabIcon name={place.icon} className="h-5 w-5 shrink-0 text-brand-600" />
            <span className="truncate">{place.label}</span>
          </span>
          <span className="flex shrink-0 items-center gap-1 text-slate-600">
            All tabs
            <ChevronDownIcon className="h-4 w-4 transition-transform group-open:rotate-180" />
          </span>
        </summary>
        {/* The workspace switcher is a landmark of its own beside the tabs, not inside their nav. */}
        <div className="absolute inset-x-4 top-full z-40 mt-1 rounded-xl border border-slate-200 bg-white p-2 shadow-lg">
          <nav aria-label="Dashboard tabs" className="grid grid-cols-2 gap-1">
            {tabs.map((t) => (
              <TabLink key={t.path} tab={t} classes={["tab-link tab-link-active", "tab-link tab-link-idle"]} onClick={menu.close}>
                <TabIcon name={t.icon} className="h-5 w-5 shrink-0" />
                <span className="min-w-0 truncate">{t.label}</span>
              </TabLink>
            ))}
          </nav>
          <div className="mt-2 border-t border-slate-100">
            <TeamSwitcher teams={teams} pathname={current} onNavigate={menu.close} />
          </div>
        </div>
      </details>
    </header>
  );
}

/** The dashboard itself failed (its frame, not one tab): spec "Reload Dashboard". */
export function ErrorBoundary() {
  const error = useRouteError();
  // In the browser's console only: the server logs it in the request's line (entry.server.tsx).
  useEffect(() => console.error(error), [error]);
  return (
    <main id="main" className="flex min-h-screen items-center justify-center bg-slate-50 px-4">
      <Card className="w-full max-w-md p-8 text-center">
        <h1 className="text-xl font-semibold text-slate-900">The dashboard could not load</h1>
        <p className="mt-2 text-sm text-slate-600">
          {isRouteErrorResponse(error) && error.status === 503
            ? "A service it needs is not answering right now."
            : "An unexpected error occurred. Please try refreshing the page."}
        </p>
        <ReloadLink className="mt-6">Reload Dashboard</ReloadLink>
      </Card>
    </main>
  );
}
