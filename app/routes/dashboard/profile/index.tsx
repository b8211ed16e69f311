import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect, useLocation, useRevalidator } from "react-router";
import type { Route } from "./+types/index";
import { TabError } from "~/components/dashboard/tab-error";
import { withParams } from "~/components/modal";
import { PhoneDialog, PhoneVerifyButton } from "~/components/profile/phone-dialog";
import { EditProfile, provideEditProfile } from "~/components/profile/edit-profile";
import { urlDialogs } from "~/components/url-dialogs.server";
import { ProfileHeader } from "~/components/profile/profile-header";
import { Alert } from "~/components/ui";
import { SessionsCard } from "~/components/profile/sessions-card";
import { PasswordCard } from "~/components/profile/password-card";
import { TwoFactorCard } from "~/components/profile/two-factor-card";
import { twoFactorStatus } from "~/lib/auth/two-factor.server";
import { DangerZoneCard } from "~/components/profile/danger-zone-card";
import { YourDataCard } from "~/components/profile/your-data-card";
import { listExports } from "~/lib/account/export.server";
import { PasskeysCard } from "~/components/profile/passkeys-card";
import { listPasskeys } from "~/lib/auth/passkeys.server";
import { listActiveSessions } from "~/lib/auth/sessions-list.server";
import { requestEmailChange } from "~/lib/profile/email-change.server";
import { PROFILE_MESSAGES as M } from "~/lib/profile/messages";
import { ensureProfile, profileView, saveProfile } from "~/lib/profile/profile.server";
import { timeZoneChoices } from "~/lib/profile/time-zone-options.server";
import { profileFormSchema } from "~/lib/profile/validation";
import { getAuth, requireUser } from "~/server/auth.server";
import { app } from "~/server/context.server";
import { readForm } from "~/server/requests.server";
import { formErrorResult, keepRetryAfter } from "~/server/responses.server";
import { proofNeedsOf, recentProof } from "~/server/recent-proof.server";
import { pageMeta } from "~/lib/site/meta";
import { redrawUsage } from "~/lib/profile/time-zone.server";

export const meta = () => pageMeta("Profile | Modelify");

// Never sent back into the form: the security answer and the password that proves an e-mail change.
const SECRET_FIELDS = ["securityAnswer", "currentPassword", "currentCode"];

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(context);
  const { db } = app(context);
  const [row, sessions, twoFactor, passkeys, exports, needs] = await Promise.all([
    ensureProfile(db, user),
    listActiveSessions(app(context), user, getAuth(context).session?.id ?? null),
    twoFactorStatus(db, user.id),
    listPasskeys(db, user.id),
    listExports(db, user.id),
    proofNeedsOf(context),
  ]);
  const params = new URL(request.url).searchParams;
  const editing = params.get("edit") === "1";
  // The dialog asked for in the URL is rendered into the HTML (see provideEditProfile).
  if (editing) provideEditProfile(urlDialogs.editProfileDialog);
  return {
    profile: profileView(row, user, { emailChangeNeedsCode: needs.code }),
    proofNeeded: needs.password,
    sessions,
    twoFactor,
    passkeys,
    exports,
    emailPending: params.get("emailPending") === "1" && row.pendingEmail !== null,
    editing,
    // The zones the form offers, only while it is open (about 420 names).
    timeZones: editing ? timeZoneChoices() : [],
    verifyingPhone: params.get("phone") === "verify",
    saved: params.get("saved") === "1",
  };
}

/**
 * The Edit Profile form. "autosave" (the 10 s countdown) answers data and keeps the dialog open;
 * "save" without JavaScript redirects to the profile with its message, as a plain form should.
 */
export const headers = keepRetryAfter;

export async function action({ request, context }: Route.ActionArgs) {
  const user = requireUser(context);
  const read = await readForm(request);
  const failed = (result: SubmissionResult<string[]>, status: number, retryAfterSeconds?: number) =>
    data(
      { result, ok: false as const, message: null, emailPending: false },
      { status, headers: retryAfterSeconds ? { "Retry-After": String(retryAfterSeconds) } : undefined },
    );
  if (!read.ok) return failed(formErrorResult(read.message), read.status);
  const intent = read.formData.get("intent");
  if (intent !== "save" && intent !== "autosave") return failed(formErrorResult(M.saveFailed), 400);
  const submission = parseWithZod(read.formData, { schema: profileFormSchema });
  if (submission.status !== "success") return failed(submission.reply({ hideFields: SECRET_FIELDS }), 400);
  const { db, queue, origin, ledgers } = app(context);
  const outcome = await saveProfile(db, user, submission.value);
  if (!outcome.ok) {
    const result = outcome.field
      ? submission.reply({ fieldErrors: { [outcome.field]: [outcome.error] }, hideFields: SECRET_FIELDS })
      : submission.reply({ formErrors: [outcome.error], hideFields: SECRET_FIELDS });
    return failed(result, outcome.status);
  }
  // A new time zone redraws the usage history at once (ADR 0030).
  if (submission.value.timezone !== user.profile.timeZone) await redrawUsage(ledgers, user.id, submission.value.timezone);
  // The e-mail address changes only through its confirmation link, and only the Save button asks
  // for one: auto-save never sends a link for a half-typed address. Putting the current address
  // back cancels a pending change.
  let emailPending = false;
  if (intent === "save") {
    const change = await requestEmailChange(
      { db, queue, origin },
      {
        userId: user.id,
        currentEmail: user.email,
        newEmail: submission.value.email,
        prove: () => recentProof(context, { password: submission.value.currentPassword, code: submission.value.currentCode }, { passwordAlways: true }),
      },
    );
    if (!change.ok) {
      const result = submission.reply({
        fieldErrors: { [change.field ?? "email"]: [change.error] },
        formErrors: [M.savedExceptEmail],
        hideFields: SECRET_FIELDS,
      });
      return failed(result, change.status, change.retryAfterSeconds);
    }
    emailPending = change.pendingEmail !== null;
  }
  if (intent === "save" && read.formData.get("js") !== "1") throw redirect(`/dashboard/profile?saved=1${emailPending ? "&emailPending=1" : ""}`);
  return {
    result: submission.reply({ hideFields: SECRET_FIELDS }),
    ok: true as const,
    message: intent === "autosave" ? M.autoSaved : M.saved,
    emailPending,
  };
}

export default function Profile({ loaderData, actionData }: Route.ComponentProps) {
  const { profile, sessions, twoFactor, passkeys, exports, editing, timeZones, saved, verifyingPhone, emailPending, proofNeeded } = loaderData;
  const { pathname, search } = useLocation();
  const revalidator = useRevalidator();
  const closePhoneTo = withParams(pathname, search, { phone: null, phoneError: null, phoneResult: null, phoneWait: null });
  return (
    <>
      {saved ? (
        <Alert tone="success" className="mb-4">
          {M.saved}
          {emailPending && profile.pendingEmail ? ` ${M.emailChangePending(profile.pendingEmail)}` : null}
        </Alert>
      ) : null}
      <ProfileHeader
        profile={profile}
        editTo={withParams(pathname, search, { edit: "1", saved: null })}
        phoneAction={<PhoneVerifyButton status={profile.phoneStatus} />}
      />
      <div className="mt-6">
        <SessionsCard sessions={sessions} />
      </div>
      <div className="mt-6">
        <PasswordCard />
      </div>
      <div className="mt-6">
        <TwoFactorCard status={twoFactor} />
      </div>
      <div className="mt-6">
        <PasskeysCard passkeys={passkeys} proofNeeded={proofNeeded} />
      </div>
      <div className="mt-6">
        <YourDataCard exports={exports} />
      </div>
      <div className="mt-6">
        <DangerZoneCard />
      </div>
      {editing ? (
        <EditProfile
          profile={profile}
          timeZones={timeZones}
          closeTo={withParams(pathname, search, { edit: null, saved: null, uploaded: null, uploadError: null, kind: null })}
          actionData={actionData ?? null}
          onUploaded={() => revalidator.revalidate()}
        />
      ) : null}
      {verifyingPhone && !editing ? (
        <PhoneDialog phoneNumber={profile.phoneNumber} status={profile.phoneStatus} codeExpiresAt={profile.phoneCodeExpiresAt} closeTo={closePhoneTo} />
      ) : null}
    </>
  );
}

export const ErrorBoundary = TabError;
