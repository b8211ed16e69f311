import { useEffect, useRef, type ReactNode } from "react";
import { Link, useNavigate } from "react-router";
import { cx } from "./ui";

// A dialog whose open state lives in the URL (?checkout=open, ?terms=open...), so it renders
// on the server and works without JavaScript. Escape, the backdrop and Close all go to closeTo.
export function UrlModal({ closeTo, labelledBy, children, wide }: { closeTo: string; labelledBy: string; children: ReactNode; wide?: boolean }) {
  const navigate = useNavigate();
  const panel = useRef<HTMLDivElement>(null);
  useEffect(() => {
    (panel.current?.querySelector<HTMLElement>("[data-autofocus]") ?? panel.current?.querySelector<HTMLElement>("button, a[href]"))?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") navigate(closeTo, { replace: true, preventScrollReset: true });
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [closeTo, navigate]);
  return (
    <div className="fixed inset-0 z-50 flex items-center justify-center p-4">
      <Link
        to={closeTo}
        replace
        preventScrollReset
        aria-label="Close"
        tabIndex={-1}
        className="absolute inset-0 bg-slate-900/50 motion-safe:animate-[fade-in_300ms_ease-out]"
      />
      <div
        ref={panel}
        role="dialog"
        aria-modal="true"
        aria-labelledby={labelledBy}
        className={cx("relative max-h-[90vh] w-full overflow-y-auto rounded-2xl bg-white p-6 shadow-xl sm:p-8", wide ? "max-w-2xl" : "max-w-md")}
      >
        <Link
          to={closeTo}
          replace
          preventScrollReset
          aria-label="Close"
          className="absolute right-4 top-4 rounded-lg p-1.5 text-slate-500 hover:bg-slate-100 hover:text-slate-800"
        >
          <svg viewBox="0 0 24 24" className="h-5 w-5" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
            <path d="M6 6l12 12M18 6 6 18" strokeLinecap="round" />
          </svg>
        </Link>
        {children}
      </div>
    </div>
  );
}

/** The current URL with search parameters set (or removed with null). */
export function withParams(pathname: string, search: string, changes: Record<string, string | null>): string {
  const params = new URLSearchParams(search);
  for (const [key, value] of Object.entries(changes)) {
    if (value === null) params.delete(key);
    else params.set(key, value);
  }
  const query = params.toString();
  return `${pathname}${query ? `?${query}` : ""}`;
}

export function withParam(pathname: string, search: string, key: string, value: string | null): string {
  return withParams(pathname, search, { [key]: value });
}
