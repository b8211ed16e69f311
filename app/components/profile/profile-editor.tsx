// The Edit Profile dialog (spec §2 Profile page, §4 Profile editing): photo and cover uploads,
// personal information and security settings, with the 10 s auto-save, a local backup restored
// within 24 h, a confirmation before leaving with unsaved changes, Reset All Changes, Reset
// Username and the Confirm Username Change dialog. Without JavaScript it is a plain form.
import { getFormProps, getInputProps, getSelectProps, getTextareaProps, type SubmissionResult, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { type ReactNode, useCallback, useEffect, useRef, useState } from "react";
import { useFetcher, useNavigate } from "react-router";
import { PROFILE, USERNAME } from "~/lib/constants";
import { PROFILE_MESSAGES as M } from "~/lib/profile/messages";
import { PROFILE_SECURITY_QUESTIONS, TIMEZONES } from "~/lib/profile/options";
import { PROFILE_FORM_FIELDS, type ProfileFormField, type ProfileFormValues, profileFormSchema } from "~/lib/profile/validation";
import type { ProfileView } from "~/lib/profile/view";
import { FormField } from "../form-field";
import { UrlModal } from "../modal";
import { Alert, Button, cx, Input, inputClass, useHydrated } from "../ui";

export type ProfileActionData = { result: SubmissionResult<string[]>; ok: boolean; message: string | null; emailPending: boolean } | null;

/** The form's values as the server has them saved (the answer is never sent back). */
export function savedValues(profile: ProfileView): ProfileFormValues {
  return {
    firstName: profile.firstName,
    lastName: profile.lastName,
    initial: profile.initial,
    username: profile.username ?? "",
    // A pending change shows the address waiting for confirmation; saving it again sends nothing.
    email: profile.pendingEmail ?? profile.email,
    phoneNumber: profile.phoneNumber ?? "",
    bio: profile.bio,
    company: profile.company,
    location: profile.location,
    website: profile.website,
    timezone: profile.timezone,
    securityQuestion: profile.securityQuestion ?? "",
    securityAnswer: "",
  };
}

// The username (which needs its confirmation dialog) and the e-mail (a change sends a
// confirmation link, so it must not go out half-typed) are saved only by the Save button.
const EXPLICIT_ONLY: ProfileFormField[] = ["username", "email"];

type Backup = { savedAt: number; values: Partial<ProfileFormValues> };

function backupKey(userId: string) {
  return `modelify:profile-backup:${userId}`;
}

function readBackup(userId: string): Backup | null {
  try {
    const raw = window.localStorage.getItem(backupKey(userId));
    if (!raw) return null;
    const parsed = JSON.parse(raw) as Backup;
    return typeof parsed?.savedAt === "number" && parsed.values && typeof parsed.values === "object" ? parsed : null;
  } catch {
    return null;
  }
}

function writeBackup(userId: string, values: ProfileFormValues) {
  // The security answer is a secret: it never goes to local storage.
  const { securityAnswer: _secret, ...rest } = values;
  try {
    window.localStorage.setItem(backupKey(userId), JSON.stringify({ savedAt: Date.now(), values: rest } satisfies Backup));
  } catch {
    // Storage full or disabled: the server save still happens.
  }
}

function clearBackup(userId: string) {
  try {
    window.localStorage.removeItem(backupKey(userId));
  } catch {
    // nothing to clear
  }
}

/** A backup under 24 h old that differs from what is saved; an older one is dropped. */
export function freshBackup(userId: string, saved: ProfileFormValues, now = Date.now()): Backup | null {
  const backup = readBackup(userId);
  if (!backup) return null;
  if (now - backup.savedAt > PROFILE.backupValidityMs) {
    clearBackup(userId);
    return null;
  }
  const differs = PROFILE_FORM_FIELDS.some((f) => typeof backup.values[f] === "string" && backup.values[f] !== saved[f]);
  return differs ? backup : null;
}

function formValues(form: HTMLFormElement, saved: ProfileFormValues): ProfileFormValues {
  const data = new FormData(form);
  const values = { ...saved };
  for (const field of PROFILE_FORM_FIELDS) {
    const v = data.get(field);
    if (typeof v === "string") values[field] = v;
  }
  return values;
}

function clearPassword(form: HTMLFormElement) {
  const element = form.elements.namedItem("currentPassword");
  if (element instanceof HTMLInputElement) element.value = "";
}

function setFieldValue(form: HTMLFormElement, field: ProfileFormField, value: string) {
  const element = form.elements.namedItem(field);
  if (element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement || element instanceof HTMLSelectElement) {
    if (!element.disabled) element.value = value;
  }
}

type Message = { tone: "success" | "error" | "info"; text: string };

export function EditProfileModal({
  profile,
  closeTo,
  actionData,
  uploads,
}: {
  profile: ProfileView;
  closeTo: string;
  /** The no-JavaScript submit's answer (with JavaScript the dialog's own fetcher holds it). */
  actionData: ProfileActionData;
  /** The photo and cover uploads: each is its own form, so they sit outside the profile form. */
  uploads?: ReactNode;
}) {
  const hydrated = useHydrated();
  const navigate = useNavigate();
  const fetcher = useFetcher<ProfileActionData>({ key: "profile-save" });
  const formRef = useRef<HTMLFormElement>(null);
  const saved = savedValues(profile);
  const savedRef = useRef(saved);
  savedRef.current = saved;

  const [dirtySince, setDirtySince] = useState<number | null>(null);
  const [explicitDirty, setExplicitDirty] = useState(false);
  const [usernameDirty, setUsernameDirty] = useState(false);
  const [emailDirty, setEmailDirty] = useState(false);
  const [now, setNow] = useState(() => Date.now());
  const [message, setMessage] = useState<Message | null>(null);
  const [confirmOpen, setConfirmOpen] = useState(false);
  const [pausedAfterError, setPausedAfterError] = useState(false);
  const lastIntent = useRef<"save" | "autosave" | null>(null);
  const confirmed = useRef(false);

  const latest = fetcher.data ?? actionData;
  const [form, fields] = useForm({
    id: "edit-profile",
    lastResult: latest?.result,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    defaultValue: saved,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: profileFormSchema }),
    // Conform calls this only for a real, valid submit. Its own field checks (validate on blur)
    // are submit events too, so deciding here rather than in the form's onSubmit keeps a blur
    // from opening the username confirmation or marking a save as under way.
    onSubmit: (event) => {
      if (usernameDirty && !confirmed.current) {
        event.preventDefault();
        setConfirmOpen(true);
        return;
      }
      confirmed.current = false;
      lastIntent.current = "save";
    },
  });

  /** Compares the form with what is saved and sets the flags (auto-save starts on its own). */
  const recompute = useCallback(() => {
    const el = formRef.current;
    if (!el) return;
    const values = formValues(el, savedRef.current);
    const changed = PROFILE_FORM_FIELDS.filter((f) => values[f] !== savedRef.current[f] && !(f === "username" && values[f] === ""));
    const autoChanged = changed.some((f) => !EXPLICIT_ONLY.includes(f));
    setDirtySince((since) => (autoChanged ? (since ?? Date.now()) : null));
    setExplicitDirty(changed.some((f) => EXPLICIT_ONLY.includes(f)));
    setUsernameDirty(changed.includes("username"));
    setEmailDirty(changed.includes("email"));
    if (changed.length) writeBackup(profile.userId, values);
    else clearBackup(profile.userId);
  }, [profile.userId]);

  const submit = useCallback(
    (intent: "save" | "autosave") => {
      const el = formRef.current;
      if (!el) return;
      const values = formValues(el, savedRef.current);
      writeBackup(profile.userId, values);
      const data = new FormData(el);
      data.set("intent", intent);
      data.set("js", "1");
      if (intent === "autosave") {
        for (const f of EXPLICIT_ONLY) data.set(f, savedRef.current[f]);
        data.delete("currentPassword");
      }
      lastIntent.current = intent;
      fetcher.submit(data, { method: "post", action: "/dashboard/profile?edit=1" });
    },
    [fetcher, profile.userId],
  );

  // Restore a backup under 24 h old (spec: "Restored unsaved changes from previous session!").
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once when the dialog opens.
  useEffect(() => {
    const el = formRef.current;
    if (!el) return;
    const backup = freshBackup(profile.userId, savedRef.current);
    if (!backup) return;
    for (const f of PROFILE_FORM_FIELDS) {
      const v = backup.values[f];
      if (typeof v === "string") setFieldValue(el, f, v);
    }
    setMessage({ tone: "info", text: M.restored });
    recompute();
  }, []);

  // The countdown's clock.
  useEffect(() => {
    if (dirtySince === null) return;
    const timer = setInterval(() => setNow(Date.now()), 200);
    return () => clearInterval(timer);
  }, [dirtySince]);

  const busy = fetcher.state !== "idle";
  const elapsed = dirtySince === null ? 0 : Math.min(now - dirtySince, PROFILE.autoSaveMs);
  const countdownDue = dirtySince !== null && elapsed >= PROFILE.autoSaveMs;
  // The countdown an auto-save was sent for. When that save ends, this effect sees "not busy"
  // before the one below clears the countdown; without this it would send the same save again.
  const savedCountdown = useRef<number | null>(null);
  const autosave = useCallback(() => {
    savedCountdown.current = dirtySince;
    submit("autosave");
  }, [dirtySince, submit]);
  useEffect(() => {
    if (countdownDue && !busy && !pausedAfterError && savedCountdown.current !== dirtySince) autosave();
  }, [countdownDue, busy, pausedAfterError, dirtySince, autosave]);

  // The page also saves when the tab becomes hidden.
  useEffect(() => {
    const onVisibility = () => {
      if (document.visibilityState === "hidden" && dirtySince !== null && !busy) autosave();
    };
    document.addEventListener("visibilitychange", onVisibility);
    return () => document.removeEventListener("visibilitychange", onVisibility);
  }, [dirtySince, busy, autosave]);

  // Leaving with unsaved changes asks the browser's confirmation.
  const unsaved = dirtySince !== null || explicitDirty;
  useEffect(() => {
    if (!unsaved) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = "";
    };
    window.addEventListener("beforeunload", onBeforeUnload);
    return () => window.removeEventListener("beforeunload", onBeforeUnload);
  }, [unsaved]);

  // A finished save: clear the flags and the backup, say so; a refused one stops the countdown
  // until the next edit (saving the same invalid form again would only fail again).
  useEffect(() => {
    if (fetcher.state !== "idle" || !fetcher.data) return;
    const intent = lastIntent.current;
    lastIntent.current = null;
    if (!intent) return;
    if (!fetcher.data.ok) {
      setPausedAfterError(true);
      setDirtySince(null);
      setMessage({ tone: "error", text: fetcher.data.result.error?.[""]?.[0] ?? M.saveFailed });
      return;
    }
    const el = formRef.current;
    if (el) {
      setFieldValue(el, "securityAnswer", "");
      if (intent === "save") clearPassword(el);
    }
    if (intent === "save") {
      clearBackup(profile.userId);
      setDirtySince(null);
      setExplicitDirty(false);
      navigate(`/dashboard/profile?saved=1${fetcher.data.emailPending ? "&emailPending=1" : ""}`, { replace: true, preventScrollReset: true });
      return;
    }
    setMessage({ tone: "success", text: fetcher.data.message ?? M.autoSaved });
    // The loader revalidates with the saved row; compare again once it has.
    setDirtySince(null);
  }, [fetcher.state, fetcher.data, navigate, profile.userId]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: compare again whenever the saved profile changes.
  useEffect(() => {
    recompute();
  }, [profile, recompute]);

  const resetAll = () => {
    // The native reset puts every field back to its saved value; the flags follow.
    clearBackup(profile.userId);
    setPausedAfterError(false);
    setDirtySince(null);
    setExplicitDirty(false);
    setUsernameDirty(false);
    setEmailDirty(false);
    setMessage({ tone: "success", text: M.reset });
    form.reset();
  };

  const resetUsername = () => {
    const el = formRef.current;
    if (el) setFieldValue(el, "username", saved.username);
    recompute();
  };

  const formProps = getFormProps(form);
  const usernameLocked = profile.usernameChangeableInDays > 0;
  const newUsername = formRef.current ? formValues(formRef.current, saved).username : "";
  const secondsLeft = Math.ceil((PROFILE.autoSaveMs - elapsed) / 1000);

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

      {dirtySince !== null ? (
        <div className="sticky top-0 z-10 mt-4 rounded-lg border border-amber-200 bg-amber-50 px-4 py-3 shadow-sm" data-testid="autosave-bar">
          <div className="flex items-center justify-between gap-3">
            <p className="text-sm font-medium text-amber-900">{busy ? "Saving..." : `Unsaved changes · auto-saving in ${secondsLeft} s`}</p>
            <Button size="sm" variant="secondary" onClick={autosave} disabled={busy}>
              Save Now
            </Button>
          </div>
          <div
            className="mt-2 h-1.5 overflow-hidden rounded-full bg-amber-100"
            role="progressbar"
            aria-label="Auto-save countdown"
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={Math.round((elapsed / PROFILE.autoSaveMs) * 100)}
          >
            <div className="h-full rounded-full bg-amber-500 transition-[width] duration-200" style={{ width: `${(elapsed / PROFILE.autoSaveMs) * 100}%` }} />
          </div>
        </div>
      ) : null}

      {uploads ? (
        <section aria-labelledby="photos-heading" className="mt-6">
          <h3 id="photos-heading" className="text-sm font-semibold text-slate-900">
            Photos
          </h3>
          <div className="mt-3 grid gap-6">{uploads}</div>
        </section>
      ) : null}

      <fetcher.Form
        method="post"
        action="/dashboard/profile?edit=1"
        ref={formRef}
        {...formProps}
        onInput={() => {
          setPausedAfterError(false);
          setMessage(null);
          recompute();
        }}
        onReset={() => setTimeout(recompute, 0)}
        className="mt-6 space-y-8"
      >
        <input type="hidden" name="intent" value="save" />
        {hydrated ? <input type="hidden" name="js" value="1" /> : null}
        {form.errors?.length ? <Alert tone="error">{form.errors[0]}</Alert> : null}

        <fieldset className="space-y-4">
          <legend className="text-sm font-semibold text-slate-900">Personal information</legend>
          <div className="grid gap-4 sm:grid-cols-[1fr_6rem_1fr]">
            <FormField label="First name" htmlFor={fields.firstName.id} errorId={fields.firstName.errorId} errors={fields.firstName.errors}>
              <Input {...getInputProps(fields.firstName, { type: "text" })} autoComplete="given-name" />
            </FormField>
            <FormField label="Initial" htmlFor={fields.initial.id} errorId={fields.initial.errorId} errors={fields.initial.errors}>
              <Input {...getInputProps(fields.initial, { type: "text" })} autoComplete="additional-name" />
            </FormField>
            <FormField label="Last name" htmlFor={fields.lastName.id} errorId={fields.lastName.errorId} errors={fields.lastName.errors}>
              <Input {...getInputProps(fields.lastName, { type: "text" })} autoComplete="family-name" />
            </FormField>
          </div>
          <FormField
            label="Username"
            htmlFor={fields.username.id}
            errorId={fields.username.errorId}
            errors={fields.username.errors}
            hint={
              usernameLocked
                ? M.usernameChangeIn(profile.usernameChangeableInDays)
                : `${USERNAME.minLength} to ${USERNAME.maxLength} letters, numbers, underscores or hyphens. You can change it once every ${USERNAME.changeIntervalDays} days.`
            }
          >
            <div className="flex rounded-lg shadow-sm">
              <span className="inline-flex items-center rounded-l-lg border border-r-0 border-slate-300 bg-slate-50 px-3 text-sm text-slate-500">@</span>
              <input
                {...getInputProps(fields.username, { type: "text" })}
                className={cx(inputClass, "rounded-l-none shadow-none")}
                autoComplete="username"
                spellCheck={false}
                disabled={usernameLocked}
              />
            </div>
          </FormField>
          <div className="grid gap-4 sm:grid-cols-2">
            <FormField
              label="Email"
              htmlFor={fields.email.id}
              errorId={fields.email.errorId}
              errors={fields.email.errors}
              hint={profile.pendingEmail ? `Waiting for confirmation: ${profile.pendingEmail}` : "A new address is confirmed by e-mail before it changes."}
            >
              <Input {...getInputProps(fields.email, { type: "email" })} autoComplete="email" />
            </FormField>
            <FormField
              label="Phone"
              htmlFor={fields.phoneNumber.id}
              errorId={fields.phoneNumber.errorId}
              errors={fields.phoneNumber.errors}
              hint="A new number needs verifying again."
            >
              <Input {...getInputProps(fields.phoneNumber, { type: "tel" })} autoComplete="tel" />
            </FormField>
          </div>
          {!hydrated || emailDirty || fields.currentPassword.errors?.length ? (
            <FormField
              label="Current password"
              htmlFor={fields.currentPassword.id}
              errorId={fields.currentPassword.errorId}
              errors={fields.currentPassword.errors}
              hint="Needed only to change your e-mail address. We will also tell your current address, with a link to cancel."
            >
              <Input {...getInputProps(fields.currentPassword, { type: "password" })} autoComplete="current-password" />
            </FormField>
          ) : null}
          <FormField label="Bio" htmlFor={fields.bio.id} errorId={fields.bio.errorId} errors={fields.bio.errors}>
            <textarea {...getTextareaProps(fields.bio)} rows={3} className={inputClass} />
          </FormField>
          <div className="grid gap-4 sm:grid-cols-2">
            <FormField label="Company" htmlFor={fields.company.id} errorId={fields.company.errorId} errors={fields.company.errors}>
              <Input {...getInputProps(fields.company, { type: "text" })} autoComplete="organization" />
            </FormField>
            <FormField label="Location" htmlFor={fields.location.id} errorId={fields.location.errorId} errors={fields.location.errors}>
              <Input {...getInputProps(fields.location, { type: "text" })} autoComplete="address-level2" />
            </FormField>
            <FormField label="Website" htmlFor={fields.website.id} errorId={fields.website.errorId} errors={fields.website.errors}>
              <Input {...getInputProps(fields.website, { type: "text" })} inputMode="url" autoComplete="url" placeholder="https://example.com" />
            </FormField>
            <FormField label="Timezone" htmlFor={fields.timezone.id} errorId={fields.timezone.errorId} errors={fields.timezone.errors}>
              <select {...getSelectProps(fields.timezone)} className={inputClass}>
                {TIMEZONES.map((t) => (
                  <option key={t.value} value={t.value}>
                    {t.label}
                  </option>
                ))}
              </select>
            </FormField>
          </div>
        </fieldset>

        <fieldset className="space-y-4">
          <legend className="text-sm font-semibold text-slate-900">Security settings</legend>
          <FormField
            label="Security question"
            htmlFor={fields.securityQuestion.id}
            errorId={fields.securityQuestion.errorId}
            errors={fields.securityQuestion.errors}
          >
            <select {...getSelectProps(fields.securityQuestion)} className={inputClass}>
              <option value="">Choose a question</option>
              {PROFILE_SECURITY_QUESTIONS.map((q) => (
                <option key={q.value} value={q.value}>
                  {q.label}
                </option>
              ))}
            </select>
          </FormField>
          <FormField
            label="Security answer"
            htmlFor={fields.securityAnswer.id}
            errorId={fields.securityAnswer.errorId}
            errors={fields.securityAnswer.errors}
            hint={
              profile.hasSecurityAnswer
                ? "Your answer is stored encrypted and never shown. Leave blank to keep it."
                : `At least ${PROFILE.securityAnswerMinLength} characters.`
            }
          >
            <Input {...getInputProps(fields.securityAnswer, { type: "password" })} autoComplete="off" />
          </FormField>
        </fieldset>

        <div className="flex flex-col-reverse gap-3 border-t border-slate-100 pt-6 sm:flex-row sm:items-center sm:justify-between">
          <div className="flex flex-col gap-3 sm:flex-row">
            <Button type="reset" variant="ghost" onClick={resetAll}>
              Reset All Changes
            </Button>
            {hydrated ? (
              <Button variant="ghost" onClick={resetUsername} disabled={!usernameDirty}>
                Reset Username
              </Button>
            ) : null}
          </div>
          <Button type="submit" disabled={busy}>
            {busy && lastIntent.current === "save" ? "Saving..." : usernameDirty ? "Confirm Username Change" : "Save"}
          </Button>
        </div>
      </fetcher.Form>

      {confirmOpen ? (
        <ConfirmUsernameDialog
          from={profile.username}
          to={newUsername}
          onCancel={() => setConfirmOpen(false)}
          onConfirm={() => {
            setConfirmOpen(false);
            confirmed.current = true;
            formRef.current?.requestSubmit();
          }}
        />
      ) : null}
    </UrlModal>
  );
}

/** Spec: the confirm-username dialog closes on Escape or a backdrop click. */
function ConfirmUsernameDialog({ from, to, onCancel, onConfirm }: { from: string | null; to: string; onCancel: () => void; onConfirm: () => void }) {
  const confirmRef = useRef<HTMLButtonElement>(null);
  useEffect(() => confirmRef.current?.focus(), []);
  // Caught first (capture on window) and stopped, so Escape closes this dialog and not the Edit
  // Profile dialog beneath, whose own listener is on window too.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      event.stopPropagation();
      onCancel();
    };
    window.addEventListener("keydown", onKey, true);
    return () => window.removeEventListener("keydown", onKey, true);
  }, [onCancel]);
  return (
    <div className="fixed inset-0 z-[60] flex items-center justify-center p-4">
      <button type="button" aria-label="Cancel" tabIndex={-1} className="absolute inset-0 cursor-default bg-slate-900/40" onClick={onCancel} />
      <div
        role="alertdialog"
        aria-modal="true"
        aria-labelledby="confirm-username-title"
        className="relative w-full max-w-sm rounded-2xl bg-white p-6 shadow-xl"
      >
        <h3 id="confirm-username-title" className="text-lg font-semibold text-slate-900">
          Confirm Username Change
        </h3>
        <p className="mt-2 text-sm text-slate-600">
          {from ? (
            <>
              Change your username from <strong className="text-slate-900">@{from}</strong> to <strong className="text-slate-900">@{to}</strong>?
            </>
          ) : (
            <>
              Set your username to <strong className="text-slate-900">@{to}</strong>?
            </>
          )}{" "}
          You can change it again after {USERNAME.changeIntervalDays} days.
        </p>
        <div className="mt-6 flex justify-end gap-3">
          <Button variant="secondary" onClick={onCancel}>
            Cancel
          </Button>
          <Button ref={confirmRef} onClick={onConfirm}>
            Confirm
          </Button>
        </div>
      </div>
    </div>
  );
}
