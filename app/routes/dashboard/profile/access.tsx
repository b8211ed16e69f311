// /dashboard/profile/access: every way into the account on one page (issue 45): its passkeys,
// two-factor, and the browsers and desktop apps signed in, each with its dates and a one-click
// removal, and what the last password reset signed out. It is the first page after a reset
// (?after=reset): a reset ends every session and device key, but passkeys are ways in the owner set
// up, so they stay, and this is where the owner checks them. The forms are the profile's own cards
// (plain forms that come back here), so it all works without JavaScript.
import { Link, useSearchParams } from "react-router";
import type { Route } from "./+types/access";
import { TabError } from "~/components/dashboard/tab-error";
import { PasskeysCard } from "~/components/profile/passkeys-card";
import { SessionsCard } from "~/components/profile/sessions-card";
import { TwoFactorCard } from "~/components/profile/two-factor-card";
import { Alert, Card } from "~/components/ui";
import { listApiKeys } from "~/lib/auth/api-keys.server";
import { listPasskeys } from "~/lib/auth/passkeys.server";
import { endedByReset, listActiveSessions } from "~/lib/auth/sessions-list.server";
import { twoFactorStatus } from "~/lib/auth/two-factor.server";
import { pageMeta } from "~/lib/site/meta";
import { getAuth, requireUser } from "~/server/auth.server";
import { app } from "~/server/context.server";
import { proofNeedsOf } from "~/server/recent-proof.server";
import { useFormat } from "~/components/format";

export const meta = () => pageMeta("Your account's access | Modelify", { noindex: true });

const HERE = "/dashboard/profile/access";

export async function loader({ context }: Route.LoaderArgs) {
  const user = requireUser(context);
  const deps = app(context);
  const [passkeys, sessions, twoFactor, ended, needs, apiKeys] = await Promise.all([
    listPasskeys(deps.db, user.id),
    listActiveSessions(deps, user, getAuth(context).session?.id ?? null),
    twoFactorStatus(deps.db, user.id),
    endedByReset(deps.db, user.id),
    proofNeedsOf(context),
    listApiKeys(deps.db, user.id),
  ]);
  const liveKeys = apiKeys.filter((key) => key.revokedAt === null).length;
  return { passkeys, sessions, twoFactor, ended, proofNeeded: needs.password, liveKeys };
}

export default function Access({ loaderData }: Route.ComponentProps) {
  const f = useFormat();
  const { passkeys, sessions, twoFactor, ended, proofNeeded, liveKeys } = loaderData;
  const [params] = useSearchParams();
  const afterReset = params.get("after") === "reset";
  return (
    <div className="space-y-6">
      <section aria-labelledby="access-title">
        <h1 id="access-title" className="text-2xl font-bold text-slate-900">
          Your account's access
        </h1>
        <p className="mt-1 text-sm text-slate-600">
          Everything that can sign in to your account: passkeys, two-factor sign-in, and the browsers and desktop apps signed in now. Remove anything you do not
          recognise.
        </p>
        {afterReset ? (
          <Alert tone="success" className="mt-4">
            {`Your password is changed, and every other session and device was signed out. ${
              passkeys.length > 0
                ? `Your ${f.plural(passkeys.length, "passkey")} still ${passkeys.length === 1 ? "signs" : "sign"} in: check ${passkeys.length === 1 ? "it" : "them"} below and remove any you did not add.`
                : "Your account has no passkeys."
            }`}
          </Alert>
        ) : null}
      </section>
      <PasskeysCard passkeys={passkeys} proofNeeded={proofNeeded} returnTo={HERE} />
      <TwoFactorCard status={twoFactor} />
      <SessionsCard sessions={sessions} returnTo={HERE} />
      <ApiKeysSummary live={liveKeys} />
      {ended.length > 0 ? <EndedByReset ended={ended} /> : null}
    </div>
  );
}

/** Personal API keys read usage only and outlive resets (ADR 0034): named here so the owner checks them too. */
function ApiKeysSummary({ live }: { live: number }) {
  const f = useFormat();
  return (
    <section aria-labelledby="access-api-keys-title">
      <Card className="p-6">
        <h2 id="access-api-keys-title" className="text-lg font-semibold text-slate-900">
          API keys
        </h2>
        <p className="mt-1 text-sm text-slate-600">
          {live === 0
            ? "Your account has no personal API keys."
            : `${f.plural(live, "personal API key")} can read your usage. A password reset does not revoke them: `}
          {live === 0 ? null : (
            <Link to="/dashboard/api-keys" className="font-medium text-blue-700 underline">
              check them and revoke any you do not use
            </Link>
          )}
        </p>
      </Card>
    </section>
  );
}

/** What the last reset signed out: named so the owner can tell whether one of them was not theirs. */
function EndedByReset({ ended }: { ended: Route.ComponentProps["loaderData"]["ended"] }) {
  const f = useFormat();
  return (
    <section aria-labelledby="ended-title">
      <Card className="p-6">
        <h2 id="ended-title" className="text-lg font-semibold text-slate-900">
          Signed out by your password reset
        </h2>
        <p className="mt-1 text-sm text-slate-600">
          These can no longer use your account. A desktop app signs in again through this browser, with your approval.
        </p>
        <ul className="mt-4 divide-y divide-slate-100" aria-label="Signed out by your password reset">
          {ended.map((session) => (
            <li key={session.id} className="py-3 text-sm">
              <p className="font-medium text-slate-900">{session.device}</p>
              <p className="mt-0.5 text-slate-600">{`Signed in ${f.date(session.createdAt)} · signed out ${f.dateTime(session.endedAt)}`}</p>
            </li>
          ))}
        </ul>
      </Card>
    </section>
  );
}

export const ErrorBoundary = TabError;
