// The Edit Profile form's fields (ADR 0011): personal information and security
// settings. Ids, aria-invalid and aria-describedby come from conform, wired by each Field.
import { type FormMetadata, getInputProps, getSelectProps, getTextareaProps } from "@conform-to/react";
import { PROFILE, USERNAME } from "~/lib/constants";
import { PROFILE_MESSAGES as M } from "~/lib/profile/messages";
import { LOCALES } from "~/lib/locale";
import { PROFILE_SECURITY_QUESTIONS, timezoneLabel } from "~/lib/profile/options";
import type { profileFormSchema } from "~/lib/profile/validation";
import type { ProfileView } from "~/lib/profile/view";
import type { z } from "~/lib/zod";
import { Field, SelectField, TextareaField } from "../forms";

type ProfileFieldset = ReturnType<FormMetadata<z.input<typeof profileFormSchema>>["getFieldset"]>;

type FieldsProps = {
  fields: ProfileFieldset;
  profile: ProfileView;
  /** Every zone the server knows, the spec's nine first: from the loader, so the browser's own list never differs from the page's. */
  timeZones: readonly string[];
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

function PersonalInformation({ fields, profile, timeZones, hydrated, emailDirty }: FieldsProps) {
  return (
    <fieldset className="space-y-4">
      <legend className="text-sm font-semibold text-slate-900">Personal information</legend>
      <div className="grid gap-4 sm:grid-cols-[1fr_6rem_1fr]">
        <Field
          labelProps={{ children: "First name" }}
          inputProps={{ ...getInputProps(fields.firstName, { type: "text" }), autoComplete: "given-name" }}
          errors={fields.firstName.errors}
        />
        <Field
          labelProps={{ children: "Initial" }}
          inputProps={{ ...getInputProps(fields.initial, { type: "text" }), autoComplete: "additional-name" }}
          errors={fields.initial.errors}
        />
        <Field
          labelProps={{ children: "Last name" }}
          inputProps={{ ...getInputProps(fields.lastName, { type: "text" }), autoComplete: "family-name" }}
          errors={fields.lastName.errors}
        />
      </div>
      <UsernameField fields={fields} profile={profile} />
      <ContactFields fields={fields} profile={profile} hydrated={hydrated} emailDirty={emailDirty} />
      <TextareaField labelProps={{ children: "Bio" }} textareaProps={{ ...getTextareaProps(fields.bio), rows: 3 }} errors={fields.bio.errors} />
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          labelProps={{ children: "Company" }}
          inputProps={{ ...getInputProps(fields.company, { type: "text" }), autoComplete: "organization" }}
          errors={fields.company.errors}
        />
        <Field
          labelProps={{ children: "Location" }}
          inputProps={{ ...getInputProps(fields.location, { type: "text" }), autoComplete: "address-level2" }}
          errors={fields.location.errors}
        />
        <Field
          labelProps={{ children: "Website" }}
          inputProps={{ ...getInputProps(fields.website, { type: "text" }), inputMode: "url", autoComplete: "url", placeholder: "https://example.com" }}
          errors={fields.website.errors}
        />
        <SelectField
          labelProps={{ children: "Timezone" }}
          selectProps={getSelectProps(fields.timezone)}
          errors={fields.timezone.errors}
          hint="Your usage's days and hours, budgets and every date are counted in it."
        >
          {timeZones.map((zone) => (
            <option key={zone} value={zone}>
              {timezoneLabel(zone)}
            </option>
          ))}
        </SelectField>
        <SelectField
          labelProps={{ children: "Number and date format" }}
          selectProps={getSelectProps(fields.locale)}
          errors={fields.locale.errors}
          hint="How figures, money and dates are written. The site's text stays English."
        >
          <option value="">Automatic (from your browser)</option>
          {LOCALES.map((l) => (
            <option key={l.value} value={l.value}>
              {l.label}
            </option>
          ))}
        </SelectField>
      </div>
    </fieldset>
  );
}

function UsernameField({ fields, profile }: Pick<FieldsProps, "fields" | "profile">) {
  const usernameLocked = profile.usernameChangeableInDays > 0;
  return (
    <Field
      labelProps={{ children: "Username" }}
      prefix="@"
      inputProps={{
        ...getInputProps(fields.username, { type: "text" }),
        autoComplete: "username",
        spellCheck: false,
        disabled: usernameLocked,
      }}
      errors={fields.username.errors}
      hint={
        usernameLocked
          ? M.usernameChangeIn(profile.usernameChangeableInDays)
          : `${USERNAME.minLength} to ${USERNAME.maxLength} letters, numbers, underscores or hyphens. You can change it once every ${USERNAME.changeIntervalDays} days.`
      }
    />
  );
}

/** E-mail and phone, and the current password that an e-mail change needs. */
function ContactFields({ fields, profile, hydrated, emailDirty }: Omit<FieldsProps, "timeZones">) {
  return (
    <>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          labelProps={{ children: "Email" }}
          inputProps={{ ...getInputProps(fields.email, { type: "email" }), autoComplete: "email" }}
          errors={fields.email.errors}
          hint={profile.pendingEmail ? `Waiting for confirmation: ${profile.pendingEmail}` : "A new address is confirmed by e-mail before it changes."}
        />
        <Field
          labelProps={{ children: "Phone" }}
          inputProps={{ ...getInputProps(fields.phoneNumber, { type: "tel" }), autoComplete: "tel" }}
          errors={fields.phoneNumber.errors}
          hint="A new number needs verifying again."
        />
      </div>
      {!hydrated || emailDirty || fields.currentPassword.errors?.length || fields.currentCode.errors?.length ? (
        <div className={profile.emailChangeNeedsCode ? "grid gap-4 sm:grid-cols-2" : undefined}>
          <Field
            labelProps={{ children: "Current password" }}
            inputProps={{ ...getInputProps(fields.currentPassword, { type: "password" }), autoComplete: "current-password" }}
            errors={fields.currentPassword.errors}
            hint="Needed only to change your e-mail address. We will also tell your current address, with a link to cancel."
          />
          {profile.emailChangeNeedsCode ? (
            <Field
              labelProps={{ children: "Authentication code" }}
              inputProps={{ ...getInputProps(fields.currentCode, { type: "text" }), autoComplete: "one-time-code", spellCheck: false }}
              errors={fields.currentCode.errors}
              hint="Two-factor is on: a code from your authenticator app, or a recovery code."
            />
          ) : null}
        </div>
      ) : null}
    </>
  );
}

function SecuritySettings({ fields, profile }: Pick<FieldsProps, "fields" | "profile">) {
  return (
    <fieldset className="space-y-4">
      <legend className="text-sm font-semibold text-slate-900">Security settings</legend>
      <SelectField labelProps={{ children: "Security question" }} selectProps={getSelectProps(fields.securityQuestion)} errors={fields.securityQuestion.errors}>
        <option value="">Choose a question</option>
        {PROFILE_SECURITY_QUESTIONS.map((q) => (
          <option key={q.value} value={q.value}>
            {q.label}
          </option>
        ))}
      </SelectField>
      <Field
        labelProps={{ children: "Security answer" }}
        inputProps={{ ...getInputProps(fields.securityAnswer, { type: "password" }), autoComplete: "off" }}
        errors={fields.securityAnswer.errors}
        hint={
          profile.hasSecurityAnswer
            ? "Your answer is stored encrypted and never shown. Leave blank to keep it."
            : `At least ${PROFILE.securityAnswerMinLength} characters.`
        }
      />
    </fieldset>
  );
}
