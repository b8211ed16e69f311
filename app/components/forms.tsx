// One labelled form control. A field takes conform's metadata (or plain props where a form has
// no conform) and wires its id, label, aria-invalid, aria-describedby, hint and error here, once,
// so no form can pair a label with the wrong control or point at an error that is not there.
import { type ComponentProps, type ReactNode, useId } from "react";
import { cx, Input, inputClass, Label } from "./ui";

/**
 * useForm's options for a form that the server alone checks (issue 31): the schemas stay on the
 * server, since zod and conform's zod adapter were about 26 KiB gzip on every form page. The
 * action answers with submission.reply(), which useForm takes as lastResult and shows beside each
 * field, with JavaScript as without. Nothing is checked on blur or input: with no onValidate,
 * conform would post each such check to the action as a "validate" intent.
 */
export const CHECKED_ON_THE_SERVER = { shouldValidate: "onSubmit", shouldRevalidate: "onSubmit" } as const;

type ListOfErrors = Array<string | null | undefined> | null | undefined;

type LabelProps = Omit<ComponentProps<"label">, "htmlFor">;

type Wiring = {
  labelProps: LabelProps;
  errors?: ListOfErrors;
  /** Shown under the control while it has no error. */
  hint?: ReactNode;
  /** Announce the error as it appears (role="alert"), for a form whose answer does not move focus. */
  announceErrors?: boolean;
  className?: string;
};

/**
 * A field's error. Only the first is shown: the schemas list the one to fix first, and a second
 * line under a short input reads as noise.
 */
function FirstError({ id, errors, announce }: { id: string; errors?: ListOfErrors; announce?: boolean }) {
  const first = errors?.find(Boolean);
  if (!first) return null;
  return (
    <p id={id} role={announce ? "alert" : undefined} className="mt-1.5 text-sm text-red-700">
      {first}
    </p>
  );
}

type ControlProps = { id?: string; key?: string | null; "aria-invalid"?: ComponentProps<"input">["aria-invalid"]; "aria-describedby"?: string };

/**
 * The ids and aria attributes of a control. A value the caller gives wins: conform's own (the same
 * ids, as conform names an error `${id}-error`), or a form whose error is shown elsewhere.
 */
function useWiring<P extends ControlProps>(props: P, errors: ListOfErrors, hint: ReactNode) {
  const fallbackId = useId();
  // conform's key remounts an uncontrolled control when the form is reset; it belongs on the element.
  const { key, ...control } = props;
  const id = control.id ?? fallbackId;
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const invalid = Boolean(errors?.some(Boolean));
  return {
    key: key ?? undefined,
    id,
    errorId,
    hintId,
    invalid,
    control: {
      ...control,
      id,
      "aria-invalid": control["aria-invalid"] ?? (invalid || undefined),
      "aria-describedby": control["aria-describedby"] ?? (invalid ? errorId : hint ? hintId : undefined),
    },
  };
}

function FieldFrame({
  wiring,
  labelProps,
  errors,
  hint,
  announceErrors,
  className,
  control,
  after,
}: Wiring & { wiring: ReturnType<typeof useWiring>; control: ReactNode; after?: ReactNode }) {
  return (
    <div className={className}>
      <Label htmlFor={wiring.id} {...labelProps} />
      {control}
      {after}
      {hint && !wiring.invalid ? (
        <p id={wiring.hintId} className="mt-1.5 text-xs text-slate-500">
          {hint}
        </p>
      ) : null}
      <FirstError id={wiring.errorId} errors={errors} announce={announceErrors} />
    </div>
  );
}

/** Fixed text joined to the input's left edge, such as the @ before a username. */
function Prefixed({ prefix, children }: { prefix: ReactNode; children: ReactNode }) {
  return (
    <div className="flex rounded-lg shadow-sm">
      <span className="inline-flex items-center rounded-l-lg border border-r-0 border-slate-300 bg-slate-50 px-3 text-sm text-slate-500">{prefix}</span>
      {children}
    </div>
  );
}

/**
 * A text-like input with its label, hint and error; `children` go right under the input (a
 * strength meter); `prefix` is fixed text joined to its left edge.
 */
export function Field({
  inputProps,
  prefix,
  children,
  ...field
}: Wiring & { inputProps: ComponentProps<"input"> & { key?: string | null }; prefix?: ReactNode; children?: ReactNode }) {
  const wiring = useWiring(inputProps, field.errors, field.hint);
  if (prefix === undefined) return <FieldFrame {...field} wiring={wiring} control={<Input key={wiring.key} {...wiring.control} />} after={children} />;
  const { className, ...control } = wiring.control;
  const input = <Input key={wiring.key} {...control} className={cx("rounded-l-none shadow-none", className)} />;
  return <FieldFrame {...field} wiring={wiring} control={<Prefixed prefix={prefix}>{input}</Prefixed>} after={children} />;
}

/** A select with its label and error; `children` are its options. */
export function SelectField({
  selectProps,
  children,
  ...field
}: Wiring & { selectProps: ComponentProps<"select"> & { key?: string | null }; children: ReactNode }) {
  const wiring = useWiring(selectProps, field.errors, field.hint);
  const { className, ...control } = wiring.control;
  return (
    <FieldFrame
      {...field}
      wiring={wiring}
      control={
        <select key={wiring.key} {...control} className={cx(inputClass, className)}>
          {children}
        </select>
      }
    />
  );
}

/** A multi-line text with its label and error. */
export function TextareaField({ textareaProps, ...field }: Wiring & { textareaProps: ComponentProps<"textarea"> & { key?: string | null } }) {
  const wiring = useWiring(textareaProps, field.errors, field.hint);
  const { className, ...control } = wiring.control;
  return <FieldFrame {...field} wiring={wiring} control={<textarea key={wiring.key} {...control} className={cx(inputClass, "resize-y", className)} />} />;
}
