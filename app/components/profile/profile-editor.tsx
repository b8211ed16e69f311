// The Edit Profile dialog (ADR 0011): photo and cover uploads,
// personal information and security settings, with the 10 s auto-save, a local backup restored
// within 24 h, a confirmation before leaving with unsaved changes, Reset All Changes, Reset
// Username and the Confirm Username Change dialog. Without JavaScript it is a plain form.
// What it does lives in useEditProfile; this file draws it.
import { getFormProps } from "@conform-to/react";
import type { ReactNode } from "react";
import { PROFILE } from "~/lib/constants";
import type { ProfileView } from "~/lib/profile/view";
import { UrlModal } from "../modal";
import { Alert, Button, useHydrated } from "../ui";
import { AutoSaveBar } from "./auto-save-bar";
import { ConfirmUsernameDialog } from "./confirm-username-dialog";
import { ProfileFields } from "./profile-fields";
import { formValues } from "./profile-form-dom";
import { useEditProfile } from "./use-edit-profile";
import type { ProfileActionData } from "./use-profile-save";

export function EditProfileModal({
  profile,
  timeZones,
  closeTo,
  actionData,
  uploads,
}: {
  profile: ProfileView;
  timeZones: readonly string[];
  closeTo: string;
  /** The no-JavaScript submit's answer (with JavaScript the dialog's own fetcher holds it). */
  actionData: ProfileActionData;
  /** The photo and cover uploads: each is its own form, so they sit outside the profile form. */
  uploads?: ReactNode;
}) {
  const hydrated = useHydrated();
  const { formRef, form, fields, message, changes, save, countdown, confirmation, onInput, resetAll, resetUsername } = useEditProfile(profile, actionData);
  return (
    <UrlModal closeTo={closeTo} labelledBy="edit-profile-title" wide>
      <h2 id="edit-profile-title" className="text-xl font-semibold text-slate-900">
        Edit Profile
      </h2>
      <p className="mt-1 text-sm text-slate-600">Changes save on their own after {PROFILE.autoSaveMs / 1000} seconds.</p>
      <div aria-live="polite" className="mt-4 space-y-3 empty:hidden">
        {message ? <Alert tone={message.tone}>{message.text}</Alert> : null}
        {!message && actionData?.ok ? <Alert tone="success">{actionData.message}</Alert> : null}
      </div>
      {changes.dirtySince !== null ? <AutoSaveBar elapsed={countdown.elapsed} busy={save.busy} onSaveNow={countdown.autosave} /> : null}
      {uploads ? (
        <section aria-labelledby="photos-heading" className="mt-6">
          <h3 id="photos-heading" className="text-sm font-semibold text-slate-900">
            Photos
          </h3>
          <div className="mt-3 grid gap-6">{uploads}</div>
        </section>
      ) : null}
      <save.fetcher.Form
        method="post"
        action="/dashboard/profile?edit=1"
        ref={formRef}
        {...getFormProps(form)}
        onInput={onInput}
        onReset={() => setTimeout(changes.recompute, 0)}
        className="mt-6 space-y-8"
      >
        <input type="hidden" name="intent" value="save" />
        {hydrated ? <input type="hidden" name="js" value="1" /> : null}
        {form.errors?.length ? <Alert tone="error">{form.errors[0]}</Alert> : null}
        <ProfileFields fields={fields} profile={profile} timeZones={timeZones} hydrated={hydrated} emailDirty={changes.emailDirty} />
        <div className="flex flex-col-reverse gap-3 border-t border-slate-100 pt-6 sm:flex-row sm:items-center sm:justify-between">
          <div className="flex flex-col gap-3 sm:flex-row">
            <Button type="reset" variant="ghost" onClick={resetAll}>
              Reset All Changes
            </Button>
            {hydrated ? (
              <Button variant="ghost" onClick={resetUsername} disabled={!changes.usernameDirty}>
                Reset Username
              </Button>
            ) : null}
          </div>
          <Button type="submit" disabled={save.busy}>
            {save.busy && save.lastIntent.current === "save" ? "Saving..." : changes.usernameDirty ? "Confirm Username Change" : "Save"}
          </Button>
        </div>
      </save.fetcher.Form>
      {confirmation.open ? (
        <ConfirmUsernameDialog
          from={profile.username}
          to={formRef.current ? formValues(formRef.current, changes.saved).username : ""}
          onCancel={confirmation.cancel}
          onConfirm={confirmation.confirm}
        />
      ) : null}
    </UrlModal>
  );
}
