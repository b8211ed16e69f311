import { createContext, type MouseEvent, type ReactNode, useCallback, useContext, useEffect, useRef, useState } from "react";
import { MODAL } from "~/lib/constants";
import { useNavigate, Link, type LinkProps } from "react-router";
import { cx } from "./ui";

// A dialog whose open state lives in the URL (?checkout=open, ?modal=contact...), so it renders
// on the server, can be linked, and works without JavaScript (its close controls are links).
// With JavaScript: focus moves in and is trapped there, Escape, the backdrop and Close fade it
// out for MODAL.exitMs before the URL changes, and focus returns to where it was.
const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

// The open dialog's fading close, for close controls inside it (Close, the backdrop, Get Started).
const CloseContext = createContext<(() => void) | null>(null);

/** A link that closes the dialog it is in: a plain link without JavaScript, a fade-out with it. */
export function ModalCloseLink({ onClick, ...props }: LinkProps) {
  const close = useContext(CloseContext);
  return (
    <Link
      replace
      preventScrollReset
      {...props}
      onClick={(e: MouseEvent<HTMLAnchorElement>) => {
        onClick?.(e);
        if (!close || e.defaultPrevented || e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
        e.preventDefault();
        close();
      }}
    />
  );
}

export function UrlModal({ closeTo, labelledBy, children, wide }: { closeTo: string; labelledBy: string; children: ReactNode; wide?: boolean }) {
  const navigate = useNavigate();
  const panel = useRef<HTMLDivElement>(null);
  const [closing, setClosing] = useState(false);
  const close = useCallback(() => {
    setClosing(true);
    window.setTimeout(() => navigate(closeTo, { replace: true, preventScrollReset: true }), MODAL.exitMs);
  }, [closeTo, navigate]);

  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    (panel.current?.querySelector<HTMLElement>("[data-autofocus]") ?? panel.current?.querySelector<HTMLElement>(FOCUSABLE))?.focus();
    return () => {
      if (opener?.isConnected) opener.focus({ preventScroll: true });
    };
  }, []);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") {
        e.preventDefault();
        close();
        return;
      }
      if (e.key !== "Tab" || !panel.current) return;
      const items = [...panel.current.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => el.offsetParent !== null || el === document.activeElement);
      if (items.length === 0) return;
      const first = items[0]!;
      const last = items[items.length - 1]!;
      const inside = panel.current.contains(document.activeElement);
      if (e.shiftKey && (document.activeElement === first || !inside)) {
        e.preventDefault();
        last.focus();
      } else if (!e.shiftKey && (document.activeElement === last || !inside)) {
        e.preventDefault();
        first.focus();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [close]);

  return (
    <CloseContext.Provider value={close}>
      <div
        className={cx("fixed inset-0 z-50 flex items-center justify-center p-4 transition-opacity duration-300", closing ? "opacity-0" : "opacity-100")}
        data-state={closing ? "closing" : "open"}
      >
        {/* The backdrop closes for a pointer; the named Close is inside the dialog (no content outside a landmark). */}
        <ModalCloseLink
          to={closeTo}
          aria-hidden="true"
          tabIndex={-1}
          className="absolute inset-0 bg-slate-900/50 motion-safe:animate-[fade-in_300ms_ease-out]"
        />
        <div
          ref={panel}
          role="dialog"
          aria-modal="true"
          aria-labelledby={labelledBy}
          className={cx(
            "relative max-h-[90vh] w-full overflow-y-auto rounded-2xl bg-white p-6 shadow-xl motion-safe:animate-[fade-in_300ms_ease-out] sm:p-8",
            wide ? "max-w-2xl" : "max-w-md",
          )}
        >
          <ModalCloseLink
            to={closeTo}
            aria-label="Close"
            className="absolute right-4 top-4 rounded-lg p-1.5 text-slate-500 hover:bg-slate-100 hover:text-slate-800"
          >
            <svg viewBox="0 0 24 24" className="h-5 w-5" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
              <path d="M6 6l12 12M18 6 6 18" strokeLinecap="round" />
            </svg>
          </ModalCloseLink>
          {children}
        </div>
      </div>
    </CloseContext.Provider>
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
