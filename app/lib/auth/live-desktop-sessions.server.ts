// The usage routes answer many small requests from the desktop app. Reading the session row for
// each one was most of their cost, so a desktop session found live is remembered by this Worker
// isolate for a few seconds. Web sessions are never remembered: their revocation stays immediate.
// A revocation made by this isolate forgets at once; one made elsewhere takes effect within
// USAGE_API.desktopSessionRecheckMs. See docs/decisions/0015-usage-route-cost-and-page-cache.md.
import { BoundedMap } from "../bounded-map";
import { USAGE_API } from "../constants";

/** `teamId`: the team the key reports under; the consumer checks the membership again (ADR 0038). */
type Remembered = { userId: string; teamId: string | null; until: number };

const live = new BoundedMap<string, Remembered>(USAGE_API.desktopSessionCacheSize);

export function recallLiveDesktopSession(sessionId: string, now: number): Remembered | null {
  return live.get(sessionId, now) ?? null;
}

export function rememberLiveDesktopSession(sessionId: string, userId: string, teamId: string | null, now: number) {
  const until = now + USAGE_API.desktopSessionRecheckMs;
  live.set(sessionId, { userId, teamId, until }, until);
}

/** After a revocation in this isolate: its own requests stop at once, not after the recheck. */
export function forgetLiveDesktopSessions(match: { sessionId?: string; userId?: string }) {
  if (match.sessionId) live.delete(match.sessionId);
  if (match.userId) live.deleteWhere((entry) => entry.userId === match.userId);
}
