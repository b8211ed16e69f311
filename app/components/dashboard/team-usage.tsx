// The team usage page (issue 50, ADR 0038): totals, the members' table (a page at a time), models
// and the viewer's days. Every figure is the server's; links and forms work without JavaScript,
// and with it the page reloads its data whenever the team's ledger stores a report.
import { Form, Link } from "react-router";
import { TEAMS } from "~/lib/constants";
import { dayStart } from "~/lib/usage/dates";
import type { SliceRow } from "~/lib/usage/ledger/types";
import type { TeamRole } from "~/lib/teams/roles";
import type { MemberRow } from "~/lib/usage/team-usage.server";
import { TeamNav } from "../teams/team-nav";
import { useFormat } from "../format";
import { Alert, Card, segmentClass } from "../ui";
import { LiveStatus, useLiveUsage } from "./live-usage";
import { EmptyState, StatCard } from "./stat";

type Props = {
  team: { slug: string; name: string; role: TeamRole };
  everyMember: boolean;
  viewerId: string;
  view: { days: number; member: string | null; paged: boolean };
  timeZone: string;
  range: { from: number; to: number; first: string; last: string };
  totals: SliceRow;
  models: SliceRow[];
  days: SliceRow[];
  members: MemberRow[];
  next: string | null;
};

/** The tab when its URL asks for what it does not have: the reason, and the tabs to go on. */
export function TeamUsageRefused({ team, message }: { team: Props["team"]; message: string }) {
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-bold tracking-tight break-words text-slate-900 sm:text-3xl">{`${team.name}: Usage`}</h1>
      <TeamNav slug={team.slug} role={team.role} />
      <Alert tone="error">{message}</Alert>
    </div>
  );
}

export function TeamUsage(props: Props) {
  const f = useFormat();
  const live = useLiveUsage(`/dashboard/teams/${props.team.slug}/usage/live`);
  const base = `/dashboard/teams/${props.team.slug}/usage`;
  const { totals } = props;
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-baseline justify-between gap-3">
        <h1 className="text-2xl font-bold tracking-tight break-words text-slate-900 sm:text-3xl">{`${props.team.name}: Usage`}</h1>
        <LiveStatus {...live} />
      </div>
      <TeamNav slug={props.team.slug} role={props.team.role} />
      <nav className="flex flex-wrap items-center gap-2" aria-label="Range">
        {TEAMS.usageRangesDays.map((days) => (
          <Link
            key={days}
            to={`${base}?days=${days}${props.view.member ? `&member=${props.view.member}` : ""}`}
            className={segmentClass(days === props.view.days)}
            aria-current={days === props.view.days ? "page" : undefined}
          >
            {`${days} days`}
          </Link>
        ))}
        <a href={`${base}.csv?days=${props.view.days}`} className="ml-auto text-sm font-medium text-blue-700 underline" download>
          Download CSV
        </a>
      </nav>
      <p className="text-sm text-slate-600">{`${f.dateRange(props.range.from, props.range.to - 1)}, days in ${props.timeZone}.`}</p>
      <div className="grid gap-4 sm:grid-cols-3">
        <StatCard title="Requests" value={f.integer(totals.totalRequests)} testId="team-requests" />
        <StatCard title="Tokens" value={f.count(totals.totalTokens)} testId="team-tokens" />
        <StatCard title="Cost" value={f.usd(totals.totalCostMicros / 1e6)} testId="team-cost" />
      </div>
      <MembersTable {...props} base={base} />
      <FiguresTable title="By Model" first="Model" rows={props.models} testId="team-models" label={(r) => `${r.key} (${r.provider ?? ""})`} />
      <FiguresTable title="By Day" first="Day" rows={props.days} testId="team-days" label={(r) => f.date(dayStart(r.key, props.timeZone))} />
    </div>
  );
}

function MembersTable(props: Props & { base: string }) {
  const f = useFormat();
  const title = props.everyMember ? "By Member" : "Your Usage";
  return (
    <Card className="p-6">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 className="text-lg font-semibold text-slate-900">{title}</h2>
        {props.view.member && props.everyMember ? (
          <Link to={`${props.base}?days=${props.view.days}`} className="text-sm text-blue-700 underline">
            Every member
          </Link>
        ) : null}
      </div>
      {props.members.length === 0 ? (
        <div className="mt-4">
          <EmptyState title="No usage in this range." />
        </div>
      ) : (
        <div className="mt-4 overflow-x-auto">
          <table className="w-full text-sm" data-testid="team-members">
            <thead className="text-left text-slate-600">
              <tr>
                <th scope="col" className="py-2 pr-3 font-medium">
                  Member
                </th>
                <th scope="col" className="py-2 pr-3 text-right font-medium">
                  Requests
                </th>
                <th scope="col" className="py-2 text-right font-medium">
                  Cost
                </th>
              </tr>
            </thead>
            <tbody>
              {props.members.map((m) => (
                <tr key={m.key} className="border-t border-slate-100" data-member={m.key}>
                  <th scope="row" className="py-2 pr-3 text-left font-normal text-slate-900">
                    {props.everyMember ? (
                      <Link to={`${props.base}?days=${props.view.days}&member=${m.key}`} className="underline">
                        {m.name}
                      </Link>
                    ) : (
                      m.name
                    )}
                  </th>
                  <td className="py-2 pr-3 text-right tabular-nums">{f.integer(m.totalRequests)}</td>
                  <td className="py-2 text-right tabular-nums">{f.usd(m.totalCostMicros / 1e6)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {props.next || props.view.paged ? (
        <Form method="get" action={props.base} className="mt-3 flex gap-3 text-sm">
          <input type="hidden" name="days" value={props.view.days} />
          {props.view.paged ? (
            <Link to={`${props.base}?days=${props.view.days}`} className="text-blue-700 underline">
              First members
            </Link>
          ) : null}
          {props.next ? (
            <button type="submit" name="after" value={props.next} className="text-blue-700 underline">
              {`Next ${TEAMS.usageMembersPerPage} members`}
            </button>
          ) : null}
        </Form>
      ) : null}
    </Card>
  );
}

function FiguresTable({
  title,
  first,
  rows,
  label,
  testId,
}: {
  title: string;
  first: string;
  rows: SliceRow[];
  label: (r: SliceRow) => string;
  testId: string;
}) {
  const f = useFormat();
  return (
    <Card className="p-6">
      <h2 className="text-lg font-semibold text-slate-900">{title}</h2>
      {rows.length === 0 ? (
        <div className="mt-4">
          <EmptyState title="No usage in this range." />
        </div>
      ) : (
        <div className="mt-4 overflow-x-auto">
          <table className="w-full text-sm" data-testid={testId}>
            <thead className="text-left text-slate-600">
              <tr>
                <th scope="col" className="py-2 pr-3 font-medium">
                  {first}
                </th>
                <th scope="col" className="py-2 pr-3 text-right font-medium">
                  Requests
                </th>
                <th scope="col" className="py-2 pr-3 text-right font-medium">
                  Tokens
                </th>
                <th scope="col" className="py-2 text-right font-medium">
                  Cost
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={`${r.key}/${r.provider ?? ""}`} className="border-t border-slate-100">
                  <th scope="row" className="py-2 pr-3 text-left font-normal text-slate-900">
                    {label(r)}
                  </th>
                  <td className="py-2 pr-3 text-right tabular-nums">{f.integer(r.totalRequests)}</td>
                  <td className="py-2 pr-3 text-right tabular-nums">{f.count(r.totalTokens)}</td>
                  <td className="py-2 text-right tabular-nums">{f.usd(r.totalCostMicros / 1e6)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Card>
  );
}
