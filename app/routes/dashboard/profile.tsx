import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect, useLocation } from "react-router";
import type { Route } from "./+types/profile";
import { TabError } from "~/components/dashboard/tab-error";
import { withParams } from "~/components/modal";
import { PhoneDialog, PhoneVerifyButton } from "~/components/profile/phone-dialog";
import { EditProfileModal } from "~/components/profile/profile-editor";
import { ProfileHeader } from "~/components/profile/profile-header";
import { Alert } from "~/components/ui";
import { PROFILE_MESSAGES as M } from "~/lib/profile/messages";
import { ensureProfile, profileView, saveProfile } from "~/lib/profile/profile.server";
import { profileFormSchema } from "~/lib/profile/validation";
import { requireUser } from "~/server/auth";
import { app } from "~/server/context";
import { formErrorResult, readForm } from "~/server/http";

export const meta = () => [{ title: "Profile | Modelify" }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(context);
  const { db } = app(context);
  const row = await ensureProfile(db, user);
  const params = new URL(request.url).searchParams;
  return {
    profile: profileView(row, user),
    editing: params.get("edit") === "1",
    verifyingPhone: params.get("phone") === "verify",
    saved: params.get("saved") === "1",
  };
}

/**
 * The Edit Profile form. "autosave" (the 10 s countdown) answers data and keeps the dialog open;
 * "save" without JavaScript redirects to the profile with its message, as a plain form should.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const user = requireUser(context);
  const read = await readForm(request);
  if (!read.ok) return data({ result: formErrorResult(read.message), ok: false as const, message: null }, { status: read.status });
  const intent = read.formData.get("intent");
  if (intent !== "save" && intent !== "autosave") {
    return data({ result: formErrorResult(M.saveFailed), ok: false as const, message: null }, { status: 400 });
  }
  const submission = parseWithZod(read.formData, { schema: profileFormSchema });
  if (submission.status !== "success") {
    return data({ result: submission.reply({ hideFields: ["securityAnswer"] }), ok: false as const, message: null }, { status: 400 });
  }
  const outcome = await saveProfile(app(context).db, user, submission.value);
  if (!outcome.ok) {
    const result = outcome.field
      ? submission.reply({ fieldErrors: { [outcome.field]: [outcome.error] }, hideFields: ["securityAnswer"] })
      : submission.reply({ formErrors: [outcome.error], hideFields: ["securityAnswer"] });
    return data({ result, ok: false as const, message: null }, { status: outcome.status });
  }
  if (intent === "save" && read.formData.get("js") !== "1") throw redirect("/dashboard/profile?saved=1");
  return { result: submission.reply({ hideFields: ["securityAnswer"] }), ok: true as const, message: intent === "autosave" ? M.autoSaved : M.saved };
}

export default function Profile({ loaderData, actionData }: Route.ComponentProps) {
  const { profile, editing, saved, verifyingPhone } = loaderData;
  const { pathname, search } = useLocation();
  const closeTo = withParams(pathname, search, { edit: null, saved: null });
  const closePhoneTo = withParams(pathname, search, { phone: null, phoneError: null, phoneResult: null, phoneWait: null });
  return (
    <>
      {saved ? (
        <Alert tone="success" className="mb-4">
          {M.saved}
        </Alert>
      ) : null}
      <ProfileHeader
        profile={profile}
        editTo={withParams(pathname, search, { edit: "1", saved: null })}
        phoneAction={<PhoneVerifyButton status={profile.phoneStatus} />}
      />
      {editing ? <EditProfileModal profile={profile} closeTo={closeTo} actionData={actionData ?? null} /> : null}
      {verifyingPhone && !editing ? (
        <PhoneDialog phoneNumber={profile.phoneNumber} status={profile.phoneStatus} codeExpiresAt={profile.phoneCodeExpiresAt} closeTo={closePhoneTo} />
      ) : null}
    </>
  );
}

export const ErrorBoundary = TabError;
