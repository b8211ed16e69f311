// A team's usage (issue 50, ADR 0038): every report a member's device key sends under a team is
// stored in the member's own ledger (as always) and in the team's ledger, the same UsageLedger
// class named `team:<teamId>`, each report there under its member. The consumer calls this after
// the members' ledgers took the batch: one call per team (more only past
// LEDGER.maxReportsPerIngest), and only for reports whose sender is a member of the team as the
// batch's one D1 read found it, so a removed member's late report counts for the member alone.
import { LEDGER } from "../constants";
import { log } from "../log/log.server";
import { type AccountFacts, type SecureItem, toLedgerSecure, toLedgerUsage, type UsageItem } from "./ingest.server";
import type { BudgetSettings } from "./budget";
import { type LedgerNamespace, ledgerFor, type UsageLedgerApi } from "./ledger/api";
import type { BudgetAlert } from "./ledger/types";

/** The name of a team's ledger: never a user id (those are UUIDs), so no account's ledger is a team's. */
export const teamLedgerName = (teamId: string) => `team:${teamId}`;

export function teamLedger(ledgers: LedgerNamespace, teamId: string): UsageLedgerApi {
  return ledgerFor(ledgers, teamLedgerName(teamId));
}

type Carried<T> = { message: Message<unknown>; item: T };
type TeamPart = { usage: Array<Carried<UsageItem>>; secure: Array<Carried<SecureItem>> };

/** The reports that count for a team, grouped by team, in calls of at most LEDGER.maxReportsPerIngest. */
export function teamParts(usage: Array<Carried<UsageItem>>, secure: Array<Carried<SecureItem>>, facts: Map<string, AccountFacts>): Map<string, TeamPart[]> {
  const counts = (item: { userId: string; teamId?: string | null }) => !!item.teamId && (facts.get(item.userId)?.teams.includes(item.teamId) ?? false);
  const byTeam = new Map<string, TeamPart[]>();
  const add = (teamId: string, kind: "usage" | "secure", carried: Carried<UsageItem> | Carried<SecureItem>) => {
    const parts = byTeam.get(teamId) ?? [{ usage: [], secure: [] }];
    byTeam.set(teamId, parts);
    let last = parts[parts.length - 1]!;
    if (last.usage.length + last.secure.length >= LEDGER.maxReportsPerIngest) {
      last = { usage: [], secure: [] };
      parts.push(last);
    }
    if (kind === "usage") last.usage.push(carried as Carried<UsageItem>);
    else last.secure.push(carried as Carried<SecureItem>);
  };
  for (const u of usage) if (counts(u.item)) add(u.item.teamId!, "usage", u);
  for (const s of secure) if (counts(s.item)) add(s.item.teamId!, "secure", s);
  return byTeam;
}

/** The budget alerts a team's ledger decided in a batch (ADR 0039): mailed to its owner and admins. */
export type TeamAlerts = { teamId: string; alerts: BudgetAlert[] };

/**
 * The batch's team reports into the teams' ledgers, side by side. A team's ledger keeps UTC (no
 * zone: the viewer's zone is drawn at read time) and decides the team budget's alerts (`budgets`,
 * ADR 0039) in UTC periods, and no health rule. The claims the reports answer end their holds on
 * the team's caps. A failed call's messages are retried whole: the members' ledgers and the team's
 * find the stored ones seen.
 */
export async function ingestTeams(
  ledgers: LedgerNamespace,
  parts: Map<string, TeamPart[]>,
  now: number,
  retry: Set<Message<unknown>>,
  budgets: Map<string, BudgetSettings> = new Map(),
): Promise<TeamAlerts[]> {
  const calls = [...parts].flatMap(([teamId, teamParts]) => teamParts.map((part) => ({ teamId, part })));
  const decided = await Promise.all(
    calls.map(async ({ teamId, part }): Promise<TeamAlerts> => {
      try {
        const result = await teamLedger(ledgers, teamId).ingest({
          usage: part.usage.map((u) => toLedgerUsage(u.item, u.item.userId)),
          secure: part.secure.map((s) => toLedgerSecure(s.item, s.item.userId)),
          budget: budgets.get(teamId) ?? null,
          now,
          claimIds: part.usage.flatMap((u) => (u.item.report.claim_id ? [u.item.report.claim_id.toLowerCase()] : [])),
        });
        return { teamId, alerts: result.alerts };
      } catch (error) {
        log.error("usage_team_failed", { size: part.usage.length + part.secure.length }, error);
        for (const carried of [...part.usage, ...part.secure]) retry.add(carried.message);
        return { teamId, alerts: [] };
      }
    }),
  );
  return decided.filter((d) => d.alerts.length > 0);
}

/** A member was removed from the team: their live sockets on the team's ledger close at once. */
export async function endTeamMemberSockets(ledgers: LedgerNamespace, teamId: string, userId: string): Promise<number> {
  return teamLedger(ledgers, teamId).endMember(userId);
}
