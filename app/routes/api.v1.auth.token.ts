// POST /api/v1/auth/token: e-mail + password → access and refresh tokens for the desktop app.
import type { Route } from "./+types/api.v1.auth.token";
import { signIn } from "~/lib/auth/accounts.server";
import { apiTokenRequestSchema } from "~/lib/auth/validation";
import { app } from "~/server/context";
import { jsonError, methodNotAllowed, postOnly, readJson } from "~/server/http";

export const loader = postOnly;

export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed();
  const parsed = apiTokenRequestSchema.safeParse(await readJson(request));
  if (!parsed.success) return jsonError(400, parsed.error.issues[0]?.message ?? "Invalid request body");
  const outcome = await signIn(app(context), { ...parsed.data, client: "desktop" });
  if (!outcome.ok) return jsonError(outcome.status, outcome.error);
  return tokenResponse(outcome.tokens, { id: outcome.user.id, email: outcome.user.email });
}

export function tokenResponse(
  tokens: { accessToken: string; refreshToken: string; accessExpiresAt: number },
  user: { id: string; email: string },
  now = Date.now(),
) {
  return Response.json(
    {
      token_type: "Bearer",
      access_token: tokens.accessToken,
      expires_in: Math.round((tokens.accessExpiresAt - now) / 1000),
      refresh_token: tokens.refreshToken,
      user,
    },
    { headers: { "Cache-Control": "no-store" } },
  );
}
