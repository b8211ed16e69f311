import type { ReactNode } from "react";
import { FieldError, Label } from "./ui";

/** A labelled control with its error; the control gets ids and aria wiring from conform. */
export function FormField({
  label,
  htmlFor,
  errorId,
  errors,
  hint,
  children,
}: {
  label: ReactNode;
  htmlFor: string;
  errorId: string;
  errors?: string[];
  hint?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div>
      <Label htmlFor={htmlFor}>{label}</Label>
      {children}
      {hint && !errors?.length ? <p className="mt-1.5 text-xs text-slate-500">{hint}</p> : null}
      <FieldError id={errorId} errors={errors} />
    </div>
  );
}
