// A team budget's alerts (issue 50, ADR 0039): the team's ledger decides each threshold once per
// UTC day or month at ingest; the consumer mails each alert to the team's owner and admins (read
// now, so a member promoted or removed a moment ago is mailed or not as of the alert). Fixed text:
// the team's name is the only words a person chose, and every recipient is a manager of the team.
import { eq, sql } from "drizzle-orm";
import type { Db } from "../db.server";
import { schema } from "../db.server";
import { SITE_FORMATS } from "../format";
import type { OutgoingMail } from "../mail/mail.server";
import { alertTime } from "../usage/budget.server";
import type { BudgetAlert } from "../usage/ledger/types";
import type { TeamAlerts } from "../usage/team-ingest.server";

type Managers = { name: string; slug: string; emails: string[] };

/** Each team's name and its owner's and admins' addresses, in one statement. */
async function managersOf(db: Db, teamIds: string[]): Promise<Map<string, Managers>> {
  const m = schema.teamMembers;
  const rows = await db
    .select({ teamId: m.teamId, name: schema.teams.name, slug: schema.teams.slug, email: schema.users.email })
    .from(m)
    .innerJoin(schema.teams, eq(schema.teams.id, m.teamId))
    .innerJoin(schema.users, eq(schema.users.id, m.userId))
    .where(sql`${m.role} IN ('owner', 'admin') AND ${m.teamId} IN (SELECT value FROM json_each(${JSON.stringify(teamIds)}))`);
  const out = new Map<string, Managers>();
  for (const r of rows) {
    const team = out.get(r.teamId) ?? { name: r.name, slug: r.slug, emails: [] };
    team.emails.push(r.email);
    out.set(r.teamId, team);
  }
  return out;
}

function teamBudgetAlertMail(to: string, team: Pick<Managers, "name" | "slug">, a: BudgetAlert): OutgoingMail {
  const percent = Math.round((a.spent / a.limit) * 100);
  const period = a.kind === "monthly" ? "month" : "day";
  return {
    to,
    subject: `Modelify team budget alert: ${percent}% of ${team.name}'s ${a.kind} budget used`,
    text: [
      `The team ${team.name} has spent ${SITE_FORMATS.usd(a.spent)} of its ${a.kind} budget of ${SITE_FORMATS.usd(a.limit)} (${percent}%).`,
      `Reached at ${alertTime(a.at, a.zone)}. A team's budgets are counted in UTC: the ${a.kind} budget starts again at ${a.kind === "monthly" ? "midnight UTC on the 1st" : "midnight UTC"}.`,
      `It passed the ${a.threshold}% alert threshold. The team's owner and admins get at most one e-mail per threshold per ${period}.`,
      "",
      `Change the team's budget in the dashboard, under Teams, ${team.name}, Budget.`,
    ].join("\n"),
    links: [],
  };
}

/** The mails of a batch's team budget alerts: one per alert and manager. */
export async function teamAlertMails(db: Db, decided: TeamAlerts[]): Promise<OutgoingMail[]> {
  if (decided.length === 0) return [];
  const managers = await managersOf(db, [...new Set(decided.map((d) => d.teamId))]);
  return decided.flatMap(({ teamId, alerts }) => {
    const team = managers.get(teamId);
    return team ? alerts.flatMap((a) => team.emails.map((to) => teamBudgetAlertMail(to, team, a))) : [];
  });
}
