// Which dashboard you are in (issue 50): "Personal" (the account's own pages) or one of its teams
// (/dashboard/teams/:slug/...). Links only, so it works without JavaScript; the current one is
// marked by NavLink (aria-current) from the address.
import { NavLink } from "react-router";
import { TabIcon } from "./icons";

export type SwitcherTeam = { slug: string; name: string };

const teamPath = (slug: string) => `/dashboard/teams/${slug}`;

/** Whether the address is a team's pages (then "Personal" is not the current choice). */
function inTeam(pathname: string): boolean {
  return pathname.startsWith("/dashboard/teams/");
}

export function TeamSwitcher({ teams, pathname, onNavigate }: { teams: SwitcherTeam[]; pathname: string; onNavigate?: () => void }) {
  const classes = (active: boolean) => (active ? "rail-link rail-link-active" : "rail-link rail-link-idle");
  return (
    <nav aria-label="Personal or team" className="space-y-1 px-2 pt-4" data-testid="team-switcher">
      <p className="px-3 pb-1 text-xs font-semibold tracking-wide text-slate-500 uppercase">Workspace</p>
      <NavLink to="/dashboard" end className={() => classes(!inTeam(pathname) && pathname !== "/dashboard/teams")} onClick={onNavigate}>
        <TabIcon name="profile" className="h-5 w-5 shrink-0" />
        <span>Personal</span>
      </NavLink>
      {teams.map((team) => (
        <NavLink
          key={team.slug}
          to={teamPath(team.slug)}
          className={() => classes(pathname === teamPath(team.slug) || pathname.startsWith(`${teamPath(team.slug)}/`))}
          onClick={onNavigate}
        >
          <TabIcon name="team" className="h-5 w-5 shrink-0" />
          <span className="min-w-0 truncate">{team.name}</span>
        </NavLink>
      ))}
      <NavLink to="/dashboard/teams" end className={({ isActive }) => classes(isActive)} onClick={onNavigate}>
        <TabIcon name="teams" className="h-5 w-5 shrink-0" />
        <span>{teams.length ? "All teams" : "Teams"}</span>
      </NavLink>
    </nav>
  );
}
