// The strength meter under a new password (sign-up, reset, the profile's change): it lists and
// scores the server's own rules (lib/auth/password-rules.ts) against its threshold, so a password
// it calls Fair or better is one the server accepts (unless it is on the common-password list).
import { type FieldMetadata, getInputProps } from "@conform-to/react";
import { useState } from "react";
import { PASSWORD_LENGTH_RULE, PASSWORD_RULES, passwordStrength, strengthColour, strengthLabel } from "~/lib/auth/password-rules";
import { PASSWORD } from "~/lib/constants";
import { Field } from "./forms";
import { cx } from "./ui";

const METER_COLOURS = { green: "bg-emerald-500", yellow: "bg-yellow-400", orange: "bg-orange-500", red: "bg-red-500" } as const;
const METER_TEXT = { green: "text-emerald-700", yellow: "text-yellow-700", orange: "text-orange-700", red: "text-red-700" } as const;

function PasswordStrengthMeter({ password }: { password: string }) {
  const score = passwordStrength(password);
  const colour = strengthColour(score);
  return (
    <div className="mt-2" data-testid="password-strength" data-score={score} data-colour={colour}>
      <div className="flex gap-1" aria-hidden="true">
        {PASSWORD_RULES.map((rule, i) => (
          <span key={rule.label} className={cx("h-1.5 flex-1 rounded-full", i < score ? METER_COLOURS[colour] : "bg-slate-200")} />
        ))}
      </div>
      <p className={cx("mt-1.5 text-xs font-medium", password ? METER_TEXT[colour] : "text-slate-500")} aria-live="polite">
        {password
          ? `Password strength: ${strengthLabel(score)} (${score}/${PASSWORD_RULES.length})`
          : `Use at least ${PASSWORD.strengthThreshold} of the ${PASSWORD_RULES.length} rules below, including ${PASSWORD_LENGTH_RULE.label}.`}
      </p>
      <ul className="mt-1 grid grid-cols-2 gap-x-4 gap-y-0.5 text-xs text-slate-500">
        {PASSWORD_RULES.map(({ label, test }) => {
          const ok = test(password);
          return (
            <li key={label} className={ok ? "text-emerald-700" : undefined}>
              <span aria-hidden="true">{ok ? "✓" : "○"}</span> {label}
            </li>
          );
        })}
      </ul>
    </div>
  );
}

/** A new password with its strength meter, then its confirmation: sign-up and the password reset. */
export function NewPasswordFields({
  password,
  confirmPassword,
  labels,
}: {
  password: FieldMetadata<string>;
  confirmPassword: FieldMetadata<string>;
  labels: { password: string; confirm: string };
}) {
  const [typed, setTyped] = useState("");
  return (
    <>
      <Field
        labelProps={{ children: labels.password }}
        inputProps={{ ...getInputProps(password, { type: "password" }), autoComplete: "new-password", onInput: (e) => setTyped(e.currentTarget.value) }}
        errors={password.errors}
      >
        <PasswordStrengthMeter password={typed} />
      </Field>
      <Field
        labelProps={{ children: labels.confirm }}
        inputProps={{ ...getInputProps(confirmPassword, { type: "password" }), autoComplete: "new-password" }}
        errors={confirmPassword.errors}
      />
    </>
  );
}
