// Operators' routes (/api/ops/*): a bearer token, OPS_TOKEN, or OPS_TOKEN_PREVIOUS while a new
// one is rolled out. Without OPS_TOKEN the routes do not exist (404). The token is compared by
// its SHA-256 digest in constant time, against every configured token whatever the first gave,
// and it is never logged.
import { timingSafeEqual } from "~/lib/crypto";
import type { AppEnv } from "./env.server";
import { jsonError } from "./responses.server";

const encoder = new TextEncoder();

async function digest(value: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", encoder.encode(value)));
}

/** The answer that refuses the request (404 or 401), or null when it carries a configured token. */
export async function opsRefusal(request: Request, env: Pick<AppEnv, "OPS_TOKEN" | "OPS_TOKEN_PREVIOUS">): Promise<Response | null> {
  if (!env.OPS_TOKEN) return opsNotFound();
  const presented = /^Bearer +(\S+) *$/i.exec(request.headers.get("Authorization") ?? "")?.[1] ?? "";
  const given = await digest(presented);
  let ok = false;
  for (const token of [env.OPS_TOKEN, env.OPS_TOKEN_PREVIOUS]) {
    if (token === undefined) continue;
    // Every configured token is compared (no early exit), so the time says nothing about which matched.
    ok = timingSafeEqual(given, await digest(token)) || ok;
  }
  if (ok && presented.length > 0) return null;
  return jsonError(401, "Unauthorized", { "WWW-Authenticate": 'Bearer realm="ops"', "Cache-Control": "no-store" });
}

/** Ops routes without OPS_TOKEN: the same answer as any unknown API path. */
export function opsNotFound(): Response {
  return jsonError(404, "Not found");
}
