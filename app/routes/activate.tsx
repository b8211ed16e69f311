// /activate: redeeming an activation key. The key's e-mail links here with ?key=…; opening the
// link changes nothing (link scanners open links too): the key moves into an HttpOnly cookie and
// out of the URL, and waits there while its owner signs in or creates an account. Redeeming is
// always an explicit POST by a signed-in user.
import { data, redirect, Link } from "react-router";
import type { Route } from "./+types/activate";
import { AuthShell } from "~/components/auth-shell";
import { RedeemKeyForm, type RedeemActionData } from "~/components/early-access/redeem-form";
import { Alert, LinkButton } from "~/components/ui";
import { EARLY_ACCESS } from "~/lib/constants";
import { userActivation } from "~/lib/early-access/activation.server";
import { formatActivationKey, normaliseActivationKey } from "~/lib/early-access/keys";
import { EARLY_ACCESS_MESSAGES as M } from "~/lib/early-access/messages";
import { redeemKeyForUser } from "~/lib/early-access/redeem.server";
import { formatDuration } from "~/lib/format";
import { ensureProfile } from "~/lib/profile/profile.server";
import { getAuth } from "~/server/auth.server";
import { app } from "~/server/context.server";
import { clearCookie, headersWithCookies, pendingKeyCookie, readCookie, setCookie } from "~/server/cookies.server";
import { readForm, singleValue } from "~/server/requests.server";
import { keepRetryAfter, retryAfter } from "~/server/responses.server";
import { pageMeta } from "~/lib/site/meta";
import { log } from "~/lib/log/log.server";
import { useFormat } from "~/components/format";

export const meta = () => pageMeta("Activate Early Access | Modelify", { noindex: true });

export const headers = keepRetryAfter;

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const fromLink = url.searchParams.get("key");
  if (fromLink !== null) {
    const key = normaliseActivationKey(fromLink.slice(0, 64));
    if (!key) return { state: "badLink" as const, signedIn: Boolean(getAuth(context).user) };
    throw redirect("/activate", { headers: headersWithCookies([await setCookie(pendingKeyCookie, url, key)]) });
  }
  const stored = await readCookie(pendingKeyCookie, request);
  const pendingKey = stored ? normaliseActivationKey(stored) : null;
  const { user } = getAuth(context);
  if (!user) return { state: "signedOut" as const, pendingKeyLast4: pendingKey?.slice(-4) ?? null };
  const activation = await userActivation(app(context).db, user);
  if (activation.earlyAccess) return { state: "member" as const, expiresAt: activation.earlyAccessExpiresAt };
  return { state: "form" as const, pendingKey: pendingKey ? formatActivationKey(pendingKey) : null, subscribed: activation.subscription };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { user } = getAuth(context);
  if (!user) return data<RedeemActionData>({ ok: false, message: M.signInToRedeem }, { status: 401 });
  const read = await readForm(request);
  if (!read.ok) return data<RedeemActionData>({ ok: false, message: read.message }, { status: read.status });
  const key = singleValue(read.formData, "key");
  if (typeof key !== "string" || key.length > 64) return data<RedeemActionData>({ ok: false, message: M.invalidKey }, { status: 400 });
  const { db, ip } = app(context);
  try {
    // Early access is kept on the profile; one made at sign-in is missing only in odd cases.
    await ensureProfile(db, user);
    const answer = await redeemKeyForUser({ db, ip }, user.id, key);
    // The waiting key is dropped once it has been answered for (redeemed, or used, expired,
    // withdrawn, unknown), and on any success; another key typed in leaves it waiting.
    const waiting = await readCookie(pendingKeyCookie, request);
    const sameKey = waiting !== null && normaliseActivationKey(waiting) === normaliseActivationKey(key);
    const settled = answer.ok || ([404, 409, 410].includes(answer.status) && sameKey);
    const headers = settled && waiting ? headersWithCookies([await clearCookie(pendingKeyCookie, new URL(request.url))]) : undefined;
    if (answer.ok) return data<RedeemActionData>({ ok: true, message: answer.message, expiresAt: answer.expiresAt }, { headers });
    if (answer.status === 429)
      return data<RedeemActionData>({ ok: false, message: answer.message }, { status: 429, headers: retryAfter(answer.retryAfterSeconds) });
    return data<RedeemActionData>({ ok: false, message: answer.message }, { status: answer.status, headers });
  } catch (error) {
    log.error("activation_key_redeem_failed", {}, error);
    return data<RedeemActionData>({ ok: false, message: M.unexpected }, { status: 503 });
  }
}

export default function Activate({ loaderData, actionData }: Route.ComponentProps) {
  const answer = actionData ?? null;
  if (answer?.ok || loaderData.state === "form") {
    const form = loaderData.state === "form" ? loaderData : null;
    return <RedeemPage pendingKey={form?.pendingKey ?? null} subscribed={form?.subscribed ?? false} answer={answer} />;
  }
  if (loaderData.state === "member") return <MemberPage expiresAt={loaderData.expiresAt} />;
  if (loaderData.state === "badLink") return <BadLinkPage signedIn={loaderData.signedIn} />;
  // Signed out (or signed out since the page loaded).
  return <SignedOutPage last4={loaderData.state === "signedOut" ? loaderData.pendingKeyLast4 : null} answer={answer} />;
}

/** The key form, and after a redeemed key the way on. */
function RedeemPage({ pendingKey, subscribed, answer }: { pendingKey: string | null; subscribed: boolean; answer: RedeemActionData | null }) {
  return (
    <AuthShell
      title="Activate Early Access"
      subtitle={`Enter the activation key from your e-mail. It unlocks the desktop app, downloads and Model Analytics for ${EARLY_ACCESS.accessDays} days.`}
      footer={
        <>
          No key yet?{" "}
          <Link to="/early-access" className="rounded font-semibold text-brand-700 hover:text-brand-800">
            Join the waitlist
          </Link>
        </>
      }
    >
      {pendingKey && !answer ? (
        <Alert tone="info" className="mb-4">
          The key from your e-mail is filled in. Activate it when you're ready.
        </Alert>
      ) : null}
      {subscribed && !answer ? (
        <Alert tone="info" className="mb-4">
          Your subscription already unlocks everything. A key adds early access alongside it.
        </Alert>
      ) : null}
      <RedeemKeyForm defaultKey={pendingKey} answer={answer} onActivatePage />
      {answer?.ok ? (
        <div className="mt-6 grid gap-3 sm:grid-cols-2">
          <LinkButton to="/dashboard">Go to Dashboard</LinkButton>
          <LinkButton to="/dashboard/downloads" variant="secondary">
            Download the App
          </LinkButton>
        </div>
      ) : null}
    </AuthShell>
  );
}

function MemberPage({ expiresAt }: { expiresAt: number | null }) {
  const f = useFormat();
  return (
    <AuthShell title="You're an Early-Access Member">
      <Alert tone="success">
        {M.alreadyActive}
        {expiresAt ? ` It is active until ${f.date(expiresAt)}.` : null}
      </Alert>
      <LinkButton to="/dashboard" className="mt-6 w-full">
        Go to Dashboard
      </LinkButton>
    </AuthShell>
  );
}

function BadLinkPage({ signedIn }: { signedIn: boolean }) {
  return (
    <AuthShell title="Activate Early Access">
      <Alert tone="error">{`This link does not hold a complete key. ${M.invalidKey}`}</Alert>
      <LinkButton to={signedIn ? "/activate" : "/auth?mode=signin&from=activate"} className="mt-6 w-full">
        {signedIn ? "Enter the Key" : "Sign In to Enter the Key"}
      </LinkButton>
    </AuthShell>
  );
}

function SignedOutPage({ last4, answer }: { last4: string | null; answer: RedeemActionData | null }) {
  return (
    <AuthShell
      title="Activate Early Access"
      subtitle={
        last4 ? `Your key ending in ${last4} is ready. Sign in, or create your account with the address it was sent to, to redeem it.` : M.signInToRedeem
      }
    >
      {answer && !answer.ok ? (
        <Alert tone="error" className="mb-4">
          {answer.message}
        </Alert>
      ) : null}
      <div className="grid gap-3 sm:grid-cols-2">
        <LinkButton to="/auth?mode=signin&from=activate">Sign In</LinkButton>
        <LinkButton to="/auth?mode=signup&from=activate" variant="secondary">
          Create Account
        </LinkButton>
      </div>
      {last4 ? (
        <p className="mt-6 text-center text-sm text-slate-600">
          {`We'll keep the key in this browser for ${formatDuration(EARLY_ACCESS.pendingKeyMs, "day")}.`}
        </p>
      ) : null}
    </AuthShell>
  );
}
