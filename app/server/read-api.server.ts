// Who may read the usage API (GET /api/v1/usage/summary and /requests, issue 49): a personal API
// key with the usage:read scope, or the desktop app's access token (a device key). Each is held to
// READ_API.perMinute reads a minute, counted in D1 by one atomic statement per read, so a burst
// from many isolates gets exactly the limit; the desktop's usage reports are rate-limited apart.
import { authenticateApiKey, isApiKeyToken, lastUseDue, touchApiKey } from "~/lib/auth/api-keys.server";
import { OAUTH_REALM } from "~/lib/auth/oauth";
import { authenticateBearerToken } from "~/lib/auth/session.server";
import { READ_API } from "~/lib/constants";
import { sessionKeys } from "~/lib/keys";
import { overCap } from "~/lib/limits/counters.server";
import { noteAccount } from "~/lib/log/log.server";
import type { AppContext } from "./context.server";
import { requireBearer } from "./auth.server";
import { jsonError, retryAfter } from "./responses.server";

/** The account being read, the zone its days are counted in, and what the rate limit counts. */
export type Reader = { userId: string; zone: string; limitKey: string };

const SCOPE = "usage:read";

async function readerOf(app: AppContext, token: string): Promise<Reader | { ended: true } | null> {
  if (isApiKeyToken(token)) {
    const key = await authenticateApiKey(app.db, token);
    if (!key) return null;
    if (!key.scopes.includes(SCOPE)) throw missingScope();
    const now = Date.now();
    if (lastUseDue(key.lastUsedAt, now)) app.ctx.waitUntil(touchApiKey(app.db, key.keyId, now));
    return { userId: key.userId, zone: key.zone, limitKey: `read-api:key:${key.keyId}` };
  }
  const auth = await authenticateBearerToken(app.db, sessionKeys(app.env), token);
  if (!auth || "ended" in auth) return auth;
  return { userId: auth.user.id, zone: auth.user.profile.timeZone, limitKey: `read-api:session:${auth.session.id}` };
}

const missingScope = () =>
  Response.json(
    { error: `This key may not read usage: it lacks the ${SCOPE} scope.`, code: "insufficient_scope" },
    {
      status: 403,
      headers: { "WWW-Authenticate": `Bearer realm="${OAUTH_REALM}", error="insufficient_scope", scope="${SCOPE}"`, "Cache-Control": "no-store" },
    },
  );

/** The reader of this request, or a JSON 401/403/429 thrown (the 429 with the window's real wait). */
export async function requireReader(request: Request, app: AppContext): Promise<Reader> {
  const reader = await requireBearer(request, (token) => readerOf(app, token), { personalKeys: true });
  noteAccount(reader.userId);
  const wait = await overCap(app.db, reader.limitKey, { limit: READ_API.perMinute, windowMs: READ_API.windowMs });
  if (wait !== null) {
    throw jsonError(429, `Too many requests: at most ${READ_API.perMinute} reads a minute per key. Retry after the time in Retry-After.`, {
      ...retryAfter(wait),
      "Cache-Control": "no-store",
    });
  }
  return reader;
}
