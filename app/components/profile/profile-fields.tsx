// The Edit Profile form's fields (ADR 0011): personal information and security
// settings. Ids, aria-invalid and aria-describedby come from conform through each FormField.
import { type FormMetadata, getInputProps, getSelectProps, getTextareaProps } from "@conform-to/react";
import { PROFILE, USERNAME } from "~/lib/constants";
import { PROFILE_MESSAGES as M } from "~/lib/profile/messages";
import { PROFILE_SECURITY_QUESTIONS, TIMEZONES } from "~/lib/profile/options";
import type { profileFormSchema } from "~/lib/profile/validation";
import type { ProfileView } from "~/lib/profile/view";
import type { z } from "~/lib/zod";
import { FormField } from "../form-field";
import { cx, Input, inputClass } from "../ui";

type ProfileFieldset = ReturnType<FormMetadata<z.input<typeof profileFormSchema>>["getFieldset"]>;

type FieldsProps = {
  fields: ProfileFieldset;
  profile: ProfileView;
  /** Without JavaScript the current password is always asked for (nothing can tell an e-mail change). */
  hydrated: boolean;
  emailDirty: boolean;
};

export function ProfileFields(props: FieldsProps) {
  return (
    <>
      <PersonalInformation {...props} />
      <SecuritySettings fields={props.fields} profile={props.profile} />
    </>
  );
}

function PersonalInformation({ fields, profile, hydrated, emailDirty }: FieldsProps) {
  return (
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
      <UsernameField fields={fields} profile={profile} />
      <ContactFields fields={fields} profile={profile} hydrated={hydrated} emailDirty={emailDirty} />
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
  );
}

function UsernameField({ fields, profile }: Pick<FieldsProps, "fields" | "profile">) {
  const usernameLocked = profile.usernameChangeableInDays > 0;
  return (
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
  );
}

/** E-mail and phone, and the current password that an e-mail change needs. */
function ContactFields({ fields, profile, hydrated, emailDirty }: FieldsProps) {
  return (
    <>
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
    </>
  );
}

function SecuritySettings({ fields, profile }: Pick<FieldsProps, "fields" | "profile">) {
  return (
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
  );
}
