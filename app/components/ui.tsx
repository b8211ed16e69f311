// Shared building blocks. One place for spacing, type scale and colour so pages stay consistent.
import { Link, type LinkProps } from "react-router";
import { forwardRef, useEffect, useState, type ComponentProps, type ReactNode } from "react";
import { HONEYPOT_FIELD } from "~/lib/honeypot";

export function cx(...classes: Array<string | false | null | undefined>) {
  return classes.filter(Boolean).join(" ");
}

type Variant = "primary" | "secondary" | "ghost" | "danger";
type Size = "sm" | "md" | "lg";

// The button's classes are component classes in app.css (@layer components): every page renders
// dozens of buttons, and their 300-character utility lists were a tenth of an uncached page's
// HTML, which the server writes out attribute by attribute (docs/performance.md). Utilities passed
// as `extra` (w-full, mt-6) still win: they sit in a later layer.
const variants: Record<Variant, string> = {
  primary: "btn btn-primary",
  secondary: "btn btn-secondary",
  ghost: "btn btn-ghost",
  danger: "btn btn-danger",
};
const sizes: Record<Size, string> = {
  sm: "btn-sm",
  md: "btn-md",
  lg: "btn-lg",
};

/** One option of a segmented control (a row of links on a grey track): the chosen one raised. */
export function segmentClass(active: boolean, className?: string): string {
  return cx(active ? "segment segment-active" : "segment segment-idle", className);
}

export function buttonClass(variant: Variant = "primary", size: Size = "md", extra?: string) {
  return cx(variants[variant], sizes[size], extra);
}

export const Button = forwardRef<HTMLButtonElement, ComponentProps<"button"> & { variant?: Variant; size?: Size }>(function Button(
  { variant = "primary", size = "md", className, type = "button", ...props },
  ref,
) {
  return <button ref={ref} type={type} className={buttonClass(variant, size, className)} {...props} />;
});

/** The honeypot field (lib/honeypot.ts): off-screen, out of the tab order and hidden from assistive technology. */
export function Honeypot({ id }: { id: string }) {
  return (
    <div className="absolute -left-[9999px] h-px w-px overflow-hidden" aria-hidden="true">
      <label htmlFor={id}>Website</label>
      <input id={id} name={HONEYPOT_FIELD} type="text" tabIndex={-1} autoComplete="off" defaultValue="" />
    </div>
  );
}

/** A form's submit button: disabled with a spinner and the busy label while its form is pending. */
export function SubmitButton({
  pending,
  idle,
  busy,
  size = "lg",
  className = "w-full",
}: {
  pending: boolean;
  idle: ReactNode;
  busy: string;
  size?: Size;
  className?: string;
}) {
  return (
    <Button type="submit" size={size} className={className} disabled={pending}>
      {pending ? (
        <>
          <Spinner className="h-4 w-4" label={busy} /> {busy}
        </>
      ) : (
        idle
      )}
    </Button>
  );
}

export function LinkButton({ variant = "primary", size = "md", className, ...props }: LinkProps & { variant?: Variant; size?: Size }) {
  return <Link className={buttonClass(variant, size, className)} {...props} />;
}

/**
 * Reloads the page the user is on. A plain link to the current address works before the
 * JavaScript has loaded, and after it has failed, which is when a reload is asked for.
 */
export function ReloadLink({ children, className }: { children: ReactNode; className?: string }) {
  return (
    // biome-ignore lint/a11y/useValidAnchor: an empty href is the current address; this link navigates (reloads), it is no button.
    <a href="" className={buttonClass("primary", "md", className)}>
      {children}
    </a>
  );
}

/**
 * `min-w-0`: a card in a grid or a row takes the width it is given, never its content's (a long line
 * kept on one line, such as a device's name in Recent Activity, made two cards 404 px wide on a 390 px
 * phone; issue 46): what is too long is cut short or scrolls inside the card.
 */
export function Card({ className, ...props }: ComponentProps<"div">) {
  return <div className={cx("min-w-0 rounded-2xl border border-slate-200 bg-white shadow-sm", className)} {...props} />;
}

export function Alert({ tone, children, className }: { tone: "error" | "success" | "info"; children: ReactNode; className?: string }) {
  const tones = {
    error: "border-red-200 bg-red-50 text-red-800",
    success: "border-emerald-200 bg-emerald-50 text-emerald-800",
    info: "border-brand-200 bg-brand-50 text-brand-900",
  };
  return (
    <div role={tone === "error" ? "alert" : "status"} className={cx("rounded-lg border px-4 py-3 text-sm", tones[tone], className)}>
      {children}
    </div>
  );
}

/**
 * An admin page's answer to its last action: it stays in view (below the phone's top tabs, at the
 * top beside the side rail) while the list under it scrolls.
 */
export function ActionResult({ result }: { result: { ok: boolean; message: string } | null | undefined }) {
  if (!result) return null;
  return (
    <div className="sticky top-28 z-20 mt-6 lg:top-4">
      <Alert tone={result.ok ? "success" : "error"} className="shadow-sm">
        {result.message}
      </Alert>
    </div>
  );
}

export function Spinner({ className, label = "Loading" }: { className?: string; label?: string }) {
  return (
    <svg className={cx("animate-spin", className ?? "h-5 w-5")} viewBox="0 0 24 24" fill="none" role="img" aria-label={label}>
      <circle cx="12" cy="12" r="10" stroke="currentColor" strokeOpacity="0.25" strokeWidth="4" />
      <path d="M22 12a10 10 0 0 0-10-10" stroke="currentColor" strokeWidth="4" strokeLinecap="round" />
    </svg>
  );
}

export function Logo({ className }: { className?: string }) {
  return (
    <span className={cx("inline-flex items-center gap-2 font-bold tracking-tight text-slate-900", className)}>
      <svg viewBox="0 0 32 32" className="h-8 w-8" aria-hidden="true">
        <rect width="32" height="32" rx="8" className="fill-brand-600" />
        <path d="M8 22V10l8 7 8-7v12" fill="none" stroke="white" strokeWidth="2.6" strokeLinecap="round" strokeLinejoin="round" />
      </svg>
      <span className="text-lg">Modelify</span>
    </span>
  );
}

export const inputClass =
  "block w-full rounded-lg border border-slate-300 bg-white px-3 py-2.5 text-sm text-slate-900 shadow-sm placeholder:text-slate-400 focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-600/30 aria-[invalid=true]:border-red-500 aria-[invalid=true]:focus:ring-red-500/30 disabled:bg-slate-100";

export const Input = forwardRef<HTMLInputElement, ComponentProps<"input">>(function Input({ className, ...props }, ref) {
  return <input ref={ref} className={cx(inputClass, className)} {...props} />;
});

export function Label({ className, ...props }: ComponentProps<"label">) {
  // biome-ignore lint/a11y/noLabelWithoutControl: callers pass htmlFor (or wrap the control) through props.
  return <label className={cx("mb-1.5 block text-sm font-medium text-slate-700", className)} {...props} />;
}

/** The site's outline icons: one 24 px path drawn with the current text colour. */
/** The chevron of a disclosure (FAQ items, "All Versions"); rotate it when open. */
export function ChevronDownIcon({ className }: { className: string }) {
  return (
    <svg viewBox="0 0 24 24" className={className} fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
      <path d="m6 9 6 6 6-6" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

export function LineIcon({ d, className = "h-5 w-5" }: { d: string; className?: string }) {
  return (
    <svg
      viewBox="0 0 24 24"
      className={className}
      fill="none"
      stroke="currentColor"
      strokeWidth="1.8"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
    >
      <path d={d} />
    </svg>
  );
}

/** A line icon on the brand's tinted square, as at the top of the landing page's cards. */
export function IconTile({ d }: { d: string }) {
  return (
    <span className="icon-tile">
      <LineIcon d={d} className="h-6 w-6" />
    </span>
  );
}

/** The check mark of lists and success badges; `bold` for the badges' larger marks. */
export function CheckIcon({ className, bold }: { className: string; bold?: boolean }) {
  return (
    <svg viewBox="0 0 24 24" className={className} fill="none" stroke="currentColor" strokeWidth={bold ? 2.5 : 2.2} aria-hidden="true">
      <path d="m5 13 4 4L19 7" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

/** True once React runs in the browser; before that (and without JavaScript) forms post as plain HTML. */
export function useHydrated() {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}
