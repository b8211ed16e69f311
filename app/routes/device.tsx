// /device: where the desktop app sends the user to sign it in (RFC 8628's verification URI). The
// signed-in user types the code the app shows (or follows the app's link with ?code=), sees
// which device asks, when and from which country, and approves or denies it. Approving gives the
// device a long-lived key, a way in: it needs a recent proof ("Confirm it's you", lib/auth/recent-proof.server.ts),
// so a session without one gives the password, and a code where two-factor is on.
// Works without JavaScript.
//
// Every code looked up counts against the user's wrong-code allowance, so only the user may spend
// it: a POST from our own page, or a GET the user or the app started (Sec-Fetch-Site none or
// same-origin). A link from another site only fills the form in (issue 25, F5).
import { data, Form, redirect, type ShouldRevalidateFunctionArgs, useNavigation } from "react-router";
import type { Route } from "./+types/device";
import { AuthShell } from "~/components/auth-shell";
import { Field } from "~/components/forms";
import { Alert, Button, LinkButton, SubmitButton } from "~/components/ui";
import { decideUserCode, lookUpUserCode, type PendingDevice } from "~/lib/auth/device-authorization.server";
import { DEVICE_MESSAGES as M, PLATFORM_LABELS, formatUserCode, normalizeUserCode } from "~/lib/auth/device-codes";
import { proofErrors, type RecentProof } from "~/lib/auth/recent-proof.server";
import { TWO_FACTOR } from "~/lib/constants";
import { countryInSentence } from "~/lib/country";
import { useFormat } from "~/components/format";
import { SITE_FORMATS } from "~/lib/format";
import { pageMeta } from "~/lib/site/meta";
import { getAuth, isOwnNavigation } from "~/server/auth.server";
import { app } from "~/server/context.server";
import { readForm, singleValue } from "~/server/requests.server";
import { proofNeedsOf, recentProof } from "~/server/recent-proof.server";
import { keepRetryAfter, retryAfter } from "~/server/responses.server";
import { listTeamsOf, membershipOf, type TeamListing } from "~/lib/teams/teams.server";

export const meta = () => pageMeta("Sign In the Desktop App | Modelify", { noindex: true });

export const headers = keepRetryAfter;

/**
 * After a post the action's answer is the page. Read again, the loader would look the address's
 * ?code= up once more (a lookup counted against the wrong-code allowance) and, after an approval,
 * find it used: the `/device.data?code=…` 404 seen in the console (issue 46).
 */
export function shouldRevalidate({ formMethod, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return formMethod === "POST" ? false : defaultShouldRevalidate;
}

/**
 * The request as the page tells it: "Requested 2 minutes ago from Germany" (from the server's
 * clock, so the page's two renders agree), and the time itself, which the page writes in the
 * account's zone.
 */
type RequestFacts = { summary: string; at: number };

type PageData =
  | { state: "enter"; email: string; code: string; error: string | null; prefilled?: boolean }
  | {
      state: "confirm";
      email: string;
      device: PendingDevice;
      requested: RequestFacts;
      needsPassword: boolean;
      needsCode: boolean;
      error: string | null;
      /** The teams the key may report under besides personal (ADR 0038), and the one chosen by slug ("" personal). */
      teams: Array<Pick<TeamListing, "slug" | "name">>;
      context: string;
    }
  | { state: "approved"; deviceName: string }
  | { state: "denied" };

function requestFacts(device: PendingDevice, now = Date.now()): RequestFacts {
  return { summary: M.requested(SITE_FORMATS.timeAgo(device.requestedAt, now), countryInSentence(device.country)), at: device.requestedAt };
}

type Choice = { teams: TeamListing[]; context: string };

const confirmPage = (email: string, device: PendingDevice, needs: { password: boolean; code: boolean }, error: string | null, choice: Choice): PageData => ({
  state: "confirm",
  email,
  device,
  requested: requestFacts(device),
  needsPassword: needs.password,
  needsCode: needs.code,
  error,
  teams: choice.teams.map((t) => ({ slug: t.slug, name: t.name })),
  context: choice.context,
});

/** What approving asks for: nothing while the session's proof is recent, else the password (and a code where two-factor is on). */
async function approvalNeeds(context: Route.LoaderArgs["context"]) {
  return proofNeedsOf(context);
}

const tooManyCodes = (email: string, code: string, retryAfterSeconds: number) =>
  data<PageData>(
    { state: "enter", email, code, error: M.tooManyCodes(Math.ceil(retryAfterSeconds / 60)) },
    { status: 429, headers: retryAfter(retryAfterSeconds) },
  );

/** The page for a code (a counted lookup): the device it names, or the code form again with why not. */
async function pageForCode(context: Route.LoaderArgs["context"], userId: string, email: string, code: string) {
  const lookup = await lookUpUserCode(app(context).db, userId, code);
  if (lookup.ok) {
    const teams = await listTeamsOf(app(context).db, userId);
    return data<PageData>(confirmPage(email, lookup.device, await approvalNeeds(context), null, { teams, context: "" }));
  }
  if (lookup.reason === "locked") return tooManyCodes(email, code, lookup.retryAfterSeconds);
  return data<PageData>({ state: "enter", email, code, error: M.invalidCode }, { status: 404 });
}

/** A code from a link, as the form shows it: the app's spelling when it is one, else as given. */
function prefill(raw: string): string {
  const canonical = normalizeUserCode(raw);
  return canonical ? formatUserCode(canonical) : raw.trim().slice(0, 20);
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const raw = url.searchParams.get("code")?.slice(0, 40) ?? null;
  const { user } = getAuth(context);
  if (!user) {
    const code = normalizeUserCode(raw);
    throw redirect(`/auth?mode=signin&from=device${code ? `&code=${formatUserCode(code)}` : ""}`);
  }
  if (raw === null || raw.trim() === "") return data<PageData>({ state: "enter", email: user.email, code: "", error: null });
  if (!isOwnNavigation(request)) return data<PageData>({ state: "enter", email: user.email, code: prefill(raw), error: null, prefilled: true });
  return pageForCode(context, user.id, user.email, raw);
}

export async function action({ request, context }: Route.ActionArgs) {
  const { user } = getAuth(context);
  if (!user) throw redirect("/auth?mode=signin&from=device");
  const read = await readForm(request);
  if (!read.ok) return data<PageData>({ state: "enter", email: user.email, code: "", error: read.message }, { status: read.status });
  const intent = singleValue(read.formData, "intent");
  const rawCode = singleValue(read.formData, "code");
  const code = typeof rawCode === "string" ? rawCode.slice(0, 40) : "";

  // Typed (or prefilled from a link) and sent from our own page: looked up and counted here, and
  // answered at once, so a page without JavaScript needs no second request.
  if (intent === "lookup") return pageForCode(context, user.id, user.email, code);
  if (intent !== "approve" && intent !== "deny") return data<PageData>({ state: "enter", email: user.email, code, error: M.invalidCode }, { status: 400 });

  const deps = app(context);
  const { db } = deps;
  // Counted against the wrong-code allowance like any lookup: posting codes is guessing too.
  const lookup = await lookUpUserCode(db, user.id, code);
  if (!lookup.ok) {
    if (lookup.reason === "locked") return tooManyCodes(user.email, code, lookup.retryAfterSeconds);
    return data<PageData>({ state: "enter", email: user.email, code, error: M.invalidCode }, { status: 400 });
  }

  let decision: Decision = "denied";
  if (intent === "approve") {
    const approval = await approvalOf(context, read.formData, user, lookup.device);
    if ("refused" in approval) return approval.refused;
    decision = approval.decision;
  }
  if (!(await decideUserCode(db, user.id, code, decision))) {
    return data<PageData>({ state: "enter", email: user.email, code, error: M.invalidCode }, { status: 400 });
  }
  return data<PageData>(decision !== "denied" ? { state: "approved", deviceName: lookup.device.name } : { state: "denied" });
}

type Decision = "denied" | { approved: RecentProof; teamId: string | null };

/**
 * An approval's recent proof and the key's context: personal, or a team the approver is a member
 * of now (decideUserCode checks it again); or the confirm page again with why not.
 */
async function approvalOf(context: Route.ActionArgs["context"], form: FormData, user: { id: string; email: string }, device: PendingDevice) {
  const { db } = app(context);
  const chosen = singleValue(form, "context");
  const slug = typeof chosen === "string" && chosen !== "" ? chosen : null;
  const membership = slug === null ? null : await membershipOf(db, slug, user.id);
  const again = async (error: string | null, chosen = slug ?? "") =>
    confirmPage(user.email, device, await approvalNeeds(context), error, { teams: await listTeamsOf(db, user.id), context: chosen });
  if (slug !== null && membership === null) return { refused: data<PageData>(await again(M.unknownTeam, ""), { status: 400 }) };
  const teamId = membership?.team.id ?? null;
  const text = (name: string) => {
    const value = singleValue(form, name);
    return typeof value === "string" ? value.slice(0, 200) : null;
  };
  const proven = await recentProof(context, { password: text("password"), code: text("twoFactorCode") });
  if (!proven.ok) {
    const { errors, status, retryAfterSeconds } = proofErrors(proven);
    const page = await again(errors.form ?? errors.password ?? errors.code ?? null);
    // Every refusal of the proof is the 401 of a credential not given or not right (or a lock's 429).
    return { refused: data<PageData>(page, { status: status === 429 ? 429 : 401, headers: retryAfterSeconds ? retryAfter(retryAfterSeconds) : undefined }) };
  }
  return { decision: { approved: proven.proof, teamId } satisfies Decision };
}

export default function Device({ loaderData, actionData }: Route.ComponentProps) {
  const page = actionData ?? loaderData;
  if (page.state === "approved") {
    return (
      <AuthShell title="Device Approved">
        <Alert tone="success">{M.approved}</Alert>
        <p className="mt-4 text-sm text-slate-600">
          {`${page.deviceName} now has its own key. You can see it, and revoke it, under Profile, Sessions and devices.`}
        </p>
        <LinkButton to="/dashboard/profile#sessions-title" variant="secondary" className="mt-6 w-full">
          See Your Devices
        </LinkButton>
      </AuthShell>
    );
  }
  if (page.state === "denied") {
    return (
      <AuthShell title="Request Denied">
        <Alert tone="info">{M.denied}</Alert>
        <LinkButton to="/dashboard" variant="secondary" className="mt-6 w-full">
          Go to Dashboard
        </LinkButton>
      </AuthShell>
    );
  }
  if (page.state === "confirm") return <ConfirmDevice page={page} />;
  return <EnterCode page={page} />;
}

function SignedInAs({ email }: { email: string }) {
  return (
    <p className="mt-6 text-center text-sm text-slate-600">
      Signed in as <span className="font-medium text-slate-900">{email}</span>
    </p>
  );
}

function EnterCode({ page }: { page: Extract<PageData, { state: "enter" }> }) {
  const pending = useNavigation().state === "submitting";
  return (
    <AuthShell title="Sign In the Desktop App" subtitle={page.prefilled ? M.prefilled : "Enter the code the Modelify app shows to connect it to your account."}>
      <Form method="post" className="space-y-5" noValidate>
        <input type="hidden" name="intent" value="lookup" />
        {page.error ? (
          <Alert tone="error" className="mb-1">
            <span id="device-code-error">{page.error}</span>
          </Alert>
        ) : null}
        {/* The refusal is the alert above the field, which the field points at. */}
        <Field
          labelProps={{ children: "Code" }}
          inputProps={{
            id: "device-code",
            name: "code",
            defaultValue: page.code,
            autoComplete: "off",
            autoCapitalize: "characters",
            spellCheck: false,
            maxLength: 20,
            required: true,
            placeholder: "XXXX-XXXX",
            "aria-describedby": page.error ? "device-code-error" : undefined,
            "aria-invalid": page.error ? true : undefined,
            className: "text-center font-mono text-lg tracking-[0.2em] uppercase",
          }}
          hint="Eight letters, like BCDF-GHJK. Dashes and case don't matter."
        />
        <SubmitButton pending={pending} idle="Continue" busy="Checking..." />
      </Form>
      <SignedInAs email={page.email} />
    </AuthShell>
  );
}

function ConfirmDevice({ page }: { page: Extract<PageData, { state: "confirm" }> }) {
  const pending = useNavigation().state === "submitting";
  const { device } = page;
  return (
    <AuthShell title="Approve This Device?" subtitle="The Modelify desktop app asks to sign in to your account.">
      <DeviceRequest page={page} />
      <Form method="post" className="mt-5 space-y-4">
        <input type="hidden" name="code" value={device.userCode} />
        {page.error ? (
          <Alert tone="error">
            <span id="device-password-error">{page.error}</span>
          </Alert>
        ) : null}
        {page.needsPassword ? (
          <Field
            labelProps={{ children: "Password" }}
            inputProps={{
              id: "device-password",
              name: "password",
              type: "password",
              autoComplete: "current-password",
              "aria-describedby": page.error ? "device-password-error" : undefined,
            }}
            hint="Confirm it's you to approve: a device gets its own key to your account."
          />
        ) : null}
        {page.needsCode ? (
          <Field
            labelProps={{ children: "Authentication code" }}
            inputProps={{
              id: "device-two-factor-code",
              name: "twoFactorCode",
              autoComplete: "one-time-code",
              maxLength: TWO_FACTOR.codeMaxLength,
              spellCheck: false,
              "aria-describedby": page.error ? "device-password-error" : undefined,
            }}
            hint={`Two-factor sign-in is on: the ${TWO_FACTOR.digits}-digit code from your authenticator app, or a recovery code.`}
          />
        ) : null}
        <DeviceContext teams={page.teams} chosen={page.context} />
        <p className="text-sm text-slate-600">
          Approve only a device you are using right now: if you did not just start this sign-in in the Modelify app yourself, deny it. An approved device gets
          its own key to report usage to your account, until you revoke it under Profile, Sessions and devices.
        </p>
        <div className="grid gap-3 sm:grid-cols-2">
          <Button type="submit" name="intent" value="approve" size="lg" disabled={pending}>
            Approve
          </Button>
          <Button type="submit" name="intent" value="deny" variant="secondary" size="lg" disabled={pending}>
            Deny
          </Button>
        </div>
      </Form>
      <SignedInAs email={page.email} />
    </AuthShell>
  );
}

/** Which device asks, with its code, when and from where: what the user checks before approving. */
function DeviceRequest({ page }: { page: Extract<PageData, { state: "confirm" }> }) {
  const f = useFormat();
  const { device } = page;
  const facts = [
    ["Device", device.name],
    ["Platform", PLATFORM_LABELS[device.platform]],
    ["App version", `Modelify ${device.appVersion}`],
    ["Requested at", f.dateTime(page.requested.at)],
  ] as const;
  return (
    <div className="rounded-xl border border-slate-200 bg-slate-50 p-4" data-testid="device-request">
      <p className="text-center text-sm text-slate-600">Check that the app shows this code</p>
      <p className="mt-1 text-center font-mono text-2xl font-semibold tracking-[0.2em] text-slate-900" data-testid="device-user-code">
        {device.userCode}
      </p>
      <p className="mt-3 text-balance text-center text-sm font-medium text-slate-900" data-testid="device-requested">
        {page.requested.summary}
      </p>
      <dl className="mt-4 grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 border-t border-slate-200 pt-4 text-sm">
        {facts.map(([term, value]) => (
          <div key={term} className="contents">
            <dt className="text-slate-600">{term}</dt>
            <dd className="min-w-0 break-words text-right font-medium text-slate-900">{value}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

/** Which account the key reports to (ADR 0038): one context per key, Personal unless a team is chosen. */
function DeviceContext({ teams, chosen }: { teams: Array<{ slug: string; name: string }>; chosen: string }) {
  if (teams.length === 0) return null;
  const options = [{ slug: "", name: "Personal" }, ...teams];
  return (
    <fieldset className="rounded-xl border border-slate-200 p-4" data-testid="device-context">
      <legend className="px-1 text-sm font-medium text-slate-900">Use this device for</legend>
      <div className="mt-1 space-y-2">
        {options.map((option) => (
          <label key={option.slug || "personal"} className="flex items-center gap-3 text-sm text-slate-900">
            <input type="radio" name="context" value={option.slug} defaultChecked={option.slug === chosen} className="size-4" />
            <span className="min-w-0 break-words">{option.name}</span>
          </label>
        ))}
      </div>
      <p className="mt-2 text-xs text-slate-600">A team&apos;s key reports your usage to you and to the team, whose owners and admins see it.</p>
    </fieldset>
  );
}
