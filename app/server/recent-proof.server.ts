// The web side of "Confirm it's you" (lib/auth/recent-proof.server.ts owns the rule): the signed-in
// session as the rule sees it, the rule run with the request's dependencies, and the answer to a
// change that needs a proof the session does not have: the confirm page, which comes back to
// `next` (a plain form), or a JSON 403 that names it (the passkey card's script).
import { data, redirect, type RouterContextProvider } from "react-router";
import { AUTH_MESSAGES as M } from "~/lib/auth/messages";
import { confirmUrl } from "~/lib/auth/modes";
import {
  type ProofInput,
  type ProofNeeds,
  type ProofRefusal,
  proofErrors,
  type ProofResult,
  type ProvingSession,
  proofNeeds,
  requireRecentProof,
} from "~/lib/auth/recent-proof.server";
import { getAuth } from "./auth.server";
import { app } from "./context.server";

/** The signed-in session (a protected page's loaders and actions only run with one). */
function provingSession(context: Readonly<RouterContextProvider>): ProvingSession {
  const { user, session } = getAuth(context);
  if (!user) throw redirect("/auth");
  return { userId: user.id, sessionId: session.id, provenAt: session.provenAt };
}

/** The rule, for this request's session. */
export function recentProof(
  context: Readonly<RouterContextProvider>,
  input: ProofInput = {},
  options: { passwordAlways?: boolean } = {},
): Promise<ProofResult> {
  return requireRecentProof(app(context), provingSession(context), input, options);
}

/** What the page's forms should ask for (nothing while a proof is recent). */
export function proofNeedsOf(context: Readonly<RouterContextProvider>): Promise<ProofNeeds & { twoFactorOn: boolean; until: number | null }> {
  return proofNeeds(app(context).db, provingSession(context));
}

/** The answer to a change without a recent proof: the confirm page (303), or JSON for a script. */
export function proofRequired(request: Request, next: string): Response {
  if ((request.headers.get("Accept") ?? "").includes("application/json")) {
    return Response.json(
      { error: M.recentProofRequired, code: "recent_proof_required", confirm: confirmUrl(next) },
      { status: 403, headers: { "Cache-Control": "no-store" } },
    );
  }
  return redirect(confirmUrl(next), 303);
}

/** proofErrors as a route's data answer. */
export function proofAnswer(refusal: ProofRefusal) {
  const { errors, status, retryAfterSeconds } = proofErrors(refusal);
  return data({ errors }, { status, headers: retryAfterSeconds ? { "Retry-After": String(Math.max(1, Math.ceil(retryAfterSeconds))) } : undefined });
}
