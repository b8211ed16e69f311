// Which dashboard you are in (issue 50): "Personal" (the account's own pages) or one of its teams
// (/dashboard/teams/:slug/...). Links only, so it works without JavaScript. The current workspace
// is aria-current="true" on every page of it: "page" belongs to the tab of the page itself (the
// rail's and the strip's), which /dashboard's "Personal" would otherwise repeat. "Personal" is
// current anywhere outside /dashboard/teams (the list of teams is neither workspace).
import type { ReactNode } from "react";
import { Link, NavLink } from "react-router";
import { TabIcon } from "./icons";

export type SwitcherTeam = { slug: string; name: string };

const teamPath = (slug: string) => `/dashboard/teams/${slug}`;
const classes = (active: boolean) => (active ? "rail-link rail-link-active" : "rail-link rail-link-idle");

export function TeamSwitcher({ teams, pathname, onNavigate }: { teams: SwitcherTeam[]; pathname: string; onNavigate?: () => void }) {
  return (
    <nav aria-label="Personal or team" className="space-y-1 px-2 pt-4" data-testid="team-switcher">
      <p className="px-3 pb-1 text-xs font-semibold tracking-wide text-slate-500 uppercase">Workspace</p>
      <WorkspaceLink to="/dashboard" current={!pathname.startsWith("/dashboard/teams")} onNavigate={onNavigate}>
        <TabIcon name="profile" className="h-5 w-5 shrink-0" />
        <span>Personal</span>
      </WorkspaceLink>
      {teams.map((team) => (
        <WorkspaceLink key={team.slug} to={teamPath(team.slug)} current={`${pathname}/`.startsWith(`${teamPath(team.slug)}/`)} onNavigate={onNavigate}>
          <TabIcon name="team" className="h-5 w-5 shrink-0" />
          <span className="min-w-0 truncate">{team.name}</span>
        </WorkspaceLink>
      ))}
      <NavLink to="/dashboard/teams" end className={({ isActive }) => classes(isActive)} onClick={onNavigate}>
        <TabIcon name="teams" className="h-5 w-5 shrink-0" />
        <span>{teams.length ? "All teams" : "Teams"}</span>
      </NavLink>
    </nav>
  );
}

function WorkspaceLink({ to, current, onNavigate, children }: { to: string; current: boolean; onNavigate?: () => void; children: ReactNode }) {
  return (
    <Link to={to} aria-current={current ? "true" : undefined} className={classes(current)} onClick={onNavigate}>
      {children}
    </Link>
  );
}
