// Helpers for the JSON API used by the desktop app.
import type { RouterContextProvider } from "react-router";
import { cloudflareContext } from "~/context";
import { authenticateAccessToken, type SessionUser } from "./auth/session.server";
import { getDb } from "./db.server";
import { parseEnv } from "./env.server";

export function jsonError(status: number, error: string, headers?: HeadersInit): Response {
  return Response.json({ error }, { status, headers });
}

/** 405 with the methods the route does take (Allow). */
export const methodNotAllowed = (allow: "POST" | "GET" = "POST") => jsonError(405, "Method not allowed", { Allow: allow === "GET" ? "GET, HEAD" : allow });
export const getOnly = () => methodNotAllowed("GET");
export const postOnly = () => methodNotAllowed("POST");

/** The user behind `Authorization: Bearer <access token>`; throws a JSON 401 otherwise. */
export async function requireApiUser(request: Request, context: Readonly<RouterContextProvider>): Promise<SessionUser> {
  const header = request.headers.get("Authorization") ?? "";
  const match = /^Bearer ([A-Za-z0-9._-]{20,4096})$/.exec(header);
  if (!match) throw jsonError(401, "Missing or malformed Authorization header", { "WWW-Authenticate": "Bearer" });
  const { env } = context.get(cloudflareContext);
  const auth = await authenticateAccessToken(getDb(env.DB), parseEnv(env).JWT_SECRET, match[1]!);
  if (!auth?.user) throw jsonError(401, "Invalid or expired access token", { "WWW-Authenticate": 'Bearer error="invalid_token"' });
  return auth.user;
}
