// The links between a team's pages (issue 50), the same on each of them: the overview and usage for
// every member, members, activity, budget and billing for owners and admins (those pages answer any other
// role 404, so the links are left out rather than shown to fail). Plain links: no JavaScript needed.
import { NavLink } from "react-router";
import { canManage, type TeamRole } from "~/lib/teams/roles";
import { segmentClass } from "../ui";

type Page = { path: string; label: string; managers: boolean };

const PAGES: Page[] = [
  { path: "", label: "Overview", managers: false },
  { path: "/usage", label: "Usage", managers: false },
  { path: "/members", label: "Members", managers: true },
  { path: "/activity", label: "Activity", managers: true },
  { path: "/budget", label: "Budget", managers: true },
  { path: "/billing", label: "Billing", managers: true },
];

export function TeamNav({ slug, role }: { slug: string; role: TeamRole }) {
  const base = `/dashboard/teams/${slug}`;
  return (
    <nav aria-label="Team pages" className="flex flex-wrap gap-2" data-testid="team-nav">
      {PAGES.filter((page) => !page.managers || canManage(role)).map((page) => (
        <NavLink key={page.path} to={`${base}${page.path}`} end={page.path === ""} className={({ isActive }) => segmentClass(isActive)}>
          {page.label}
        </NavLink>
      ))}
    </nav>
  );
}
