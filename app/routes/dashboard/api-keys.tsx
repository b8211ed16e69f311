// /dashboard/api-keys: personal API keys (issue 49, ADR 0034), read-only keys for one's own scripts.
// Making one adds a way to read the account: it asks for a recent proof (the password, and a code
// where two-factor is on, while the session has none) and mails the owner; the secret is shown once,
// in the answer to the post, and never stored. Revoking one takes effect at once and mails too.
// Plain forms: it all works without JavaScript.
import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect } from "react-router";
import type { Route } from "./+types/api-keys";
import { ApiKeysTab } from "~/components/dashboard/api-keys-tab";
import { TabError } from "~/components/dashboard/tab-error";
import { createApiKeySchema, revokeApiKeySchema } from "~/lib/auth/api-key-form";
import { API_KEYS_PAGE, createApiKey, listApiKeys, revokeApiKey } from "~/lib/auth/api-keys.server";
import { proofErrors } from "~/lib/auth/recent-proof.server";
import { API_KEYS } from "~/lib/constants";
import { pageMeta } from "~/lib/site/meta";
import { requireUser } from "~/server/auth.server";
import { app } from "~/server/context.server";
import { proofNeedsOf, recentProof } from "~/server/recent-proof.server";
import { readForm } from "~/server/requests.server";
import { formErrorResult, keepRetryAfter, retryAfter } from "~/server/responses.server";

export const meta = () => pageMeta("API Keys | Modelify", { noindex: true });
export const headers = keepRetryAfter;

const NO_STORE = { "Cache-Control": "no-store" };
const SECRETS = ["password", "code"];
const LIMIT_REACHED = `You have ${API_KEYS.maxPerAccount} keys, the most an account may hold: revoke one you no longer use first.`;

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(context);
  const [keys, needs] = await Promise.all([listApiKeys(app(context).db, user.id), proofNeedsOf(context)]);
  const outcome = new URL(request.url).searchParams.get("revoked");
  return { keys, needs: { password: needs.password, code: needs.code }, revoked: outcome === "1" ? true : outcome === "0" ? false : null };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = requireUser(context);
  const deps = app(context);
  const read = await readForm(request);
  if (!read.ok) return data({ result: formErrorResult(read.message), created: null }, { status: read.status });
  if (read.formData.get("intent") === "revoke") {
    const parsed = revokeApiKeySchema.safeParse(Object.fromEntries(read.formData));
    // Another user's key, or one already revoked, revokes nothing and answers like a key that never existed.
    const revoked = parsed.success && (await revokeApiKey(deps, user, parsed.data.id));
    throw redirect(`${API_KEYS_PAGE}?revoked=${revoked ? 1 : 0}`, 303);
  }
  const submission = parseWithZod(read.formData, { schema: createApiKeySchema });
  if (submission.status !== "success") return data({ result: submission.reply({ hideFields: SECRETS }), created: null }, { status: 400 });
  const { name, password, code } = submission.value;
  const proven = await recentProof(context, { password, code });
  if (!proven.ok) {
    const { errors, status, retryAfterSeconds } = proofErrors(proven);
    const result = submission.reply({
      fieldErrors: { ...(errors.password && { password: [errors.password] }), ...(errors.code && { code: [errors.code] }) },
      formErrors: errors.form ? [errors.form] : [],
      hideFields: SECRETS,
    });
    return data({ result, created: null }, { status, headers: retryAfterSeconds ? retryAfter(retryAfterSeconds) : undefined });
  }
  const outcome = await createApiKey(deps, user, name, proven.proof);
  if (!outcome.ok) return data({ result: submission.reply({ formErrors: [LIMIT_REACHED], hideFields: SECRETS }), created: null }, { status: 409 });
  // The one answer that holds the secret: never stored by a cache.
  return data({ result: submission.reply({ resetForm: true }), created: { name: outcome.key.name, secret: outcome.key.secret } }, { headers: NO_STORE });
}

export default function ApiKeys({ loaderData, actionData }: Route.ComponentProps) {
  return <ApiKeysTab {...loaderData} result={actionData?.result} created={actionData?.created ?? null} />;
}

export const ErrorBoundary = TabError;
