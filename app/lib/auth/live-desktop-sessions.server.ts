// The usage routes answer many small requests from the desktop app. Reading the session row for
// each one was most of their cost, so a desktop session found live is remembered by this Worker
// isolate for a few seconds. Web sessions are never remembered: their revocation stays immediate.
// A revocation made by this isolate forgets at once; one made elsewhere takes effect within
// USAGE_API.desktopSessionRecheckMs. See docs/decisions/0015-usage-route-cost-and-page-cache.md.
import { USAGE_API } from "../constants";

type Remembered = { userId: string; until: number };

const live = new Map<string, Remembered>();

export function recallLiveDesktopSession(sessionId: string, now: number): Remembered | null {
  const found = live.get(sessionId);
  if (!found) return null;
  if (found.until > now) return found;
  live.delete(sessionId);
  return null;
}

export function rememberLiveDesktopSession(sessionId: string, userId: string, now: number) {
  live.delete(sessionId);
  live.set(sessionId, { userId, until: now + USAGE_API.desktopSessionRecheckMs });
  // Map keeps insertion order: the first key is the one remembered longest ago.
  while (live.size > USAGE_API.desktopSessionCacheSize) live.delete(live.keys().next().value as string);
}

/** After a revocation in this isolate: its own requests stop at once, not after the recheck. */
export function forgetLiveDesktopSessions(match: { sessionId?: string; userId?: string }) {
  if (match.sessionId) live.delete(match.sessionId);
  if (match.userId) for (const [id, entry] of live) if (entry.userId === match.userId) live.delete(id);
}
