import {
  createContext,
  type MouseEvent as ReactMouseEvent,
  type ReactNode,
  type RefObject,
  useCallback,
  useContext,
  useEffectEvent,
  useLayoutEffect,
  useRef,
  useState,
  useSyncExternalStore,
} from "react";
import { MODAL } from "~/lib/constants";
import { useNavigate, Link, type LinkProps } from "react-router";
import { cx } from "./ui";

// A dialog whose open state lives in the URL (?checkout=open, ?modal=contact...), so it renders
// on the server, can be linked, and works without JavaScript: the server renders the <dialog>
// open over a backdrop that is a link, and its close controls are links. With JavaScript it is
// the platform's modal dialog (showModal): focus moves in, the page behind is inert, Escape asks
// to close. Escape, the backdrop and Close fade it out for MODAL.exitMs before the URL changes, and
// closing it hands focus back to what opened it.

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
      onClick={(e: ReactMouseEvent<HTMLAnchorElement>) => {
        onClick?.(e);
        if (!close || e.defaultPrevented || e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
        e.preventDefault();
        close();
      }}
    />
  );
}

/** A press on the ::backdrop: the event's target is the dialog, its point outside the dialog's box. */
function onBackdrop(dialog: HTMLDialogElement, e: MouseEvent): boolean {
  const box = dialog.getBoundingClientRect();
  return e.target === dialog && (e.clientX < box.left || e.clientX > box.right || e.clientY < box.top || e.clientY > box.bottom);
}

/**
 * Makes a <dialog> the platform's modal dialog while it is mounted. One the server renders is
 * rendered open, so that a page without JavaScript shows it; showModal() wants it closed first. Focus goes where it was if the
 * visitor was in the dialog before the page hydrated, else to the element marked data-autofocus,
 * else where the platform puts it (the first focusable). Escape (the cancel event) and a press on
 * the backdrop call onDismiss; the dialog stays until it unmounts, when close() gives focus back to
 * what had it before.
 */
export function useModalDialog(ref: RefObject<HTMLDialogElement | null>, onDismiss: () => void) {
  const dismiss = useEffectEvent(onDismiss);
  useLayoutEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const active = document.activeElement;
    const focused = active instanceof HTMLElement && dialog.contains(active) ? active : null;
    if (dialog.open) dialog.close();
    dialog.showModal();
    (focused ?? dialog.querySelector<HTMLElement>("[data-autofocus]"))?.focus();
    // Pressed and released on the backdrop: a text selection dragged out of the dialog does not close it.
    let pressed = false;
    const onPointerDown = (e: PointerEvent) => {
      pressed = onBackdrop(dialog, e);
    };
    const onClick = (e: MouseEvent) => {
      if (pressed && onBackdrop(dialog, e)) dismiss();
    };
    // Without the visitor's activation since the last one, the platform closes the dialog anyway.
    const onCancel = (e: Event) => {
      e.preventDefault();
      dismiss();
    };
    dialog.addEventListener("pointerdown", onPointerDown);
    dialog.addEventListener("click", onClick);
    dialog.addEventListener("cancel", onCancel);
    return () => {
      dialog.removeEventListener("pointerdown", onPointerDown);
      dialog.removeEventListener("click", onClick);
      dialog.removeEventListener("cancel", onCancel);
      dialog.close();
    };
  }, [ref]);
}

const subscribeToNothing = () => () => {};

/** True when rendering in the browser outside hydration: a component mounted by a navigation. */
const useClientRender = () =>
  useSyncExternalStore(
    subscribeToNothing,
    () => true,
    () => false,
  );

export function UrlModal({ closeTo, labelledBy, children, wide }: { closeTo: string; labelledBy: string; children: ReactNode; wide?: boolean }) {
  const navigate = useNavigate();
  const dialog = useRef<HTMLDialogElement>(null);
  const [closing, setClosing] = useState(false);
  // A dialog opened by a navigation fades in with its backdrop. One the server rendered is on screen
  // already, over the backdrop link: its ::backdrop, new at hydration, takes the link's place as it is.
  const clientRender = useClientRender();
  const [backdropFadesIn] = useState(clientRender);
  const close = useCallback(() => {
    setClosing(true);
    window.setTimeout(() => navigate(closeTo, { replace: true, preventScrollReset: true }), MODAL.exitMs);
  }, [closeTo, navigate]);
  useModalDialog(dialog, close);

  return (
    <CloseContext.Provider value={close}>
      {/* The backdrop while the dialog is not modal (no JavaScript): a press on it closes. The named Close is in the dialog. */}
      <ModalCloseLink
        to={closeTo}
        aria-hidden="true"
        tabIndex={-1}
        className={cx(
          "fixed inset-0 z-50 bg-slate-900/50 transition-opacity duration-300 motion-safe:animate-[fade-in_300ms_ease-out] [&:has(+dialog:modal)]:hidden",
          closing && "opacity-0",
        )}
      />
      <dialog
        ref={dialog}
        open
        aria-labelledby={labelledBy}
        data-state={closing ? "closing" : "open"}
        className={cx(
          "fixed inset-0 z-50 m-auto h-fit max-h-[90vh] w-[calc(100%-2rem)] overflow-y-auto rounded-2xl bg-white p-6 text-inherit shadow-xl sm:p-8",
          "transition-opacity duration-300 motion-safe:animate-[fade-in_300ms_ease-out] data-[state=closing]:opacity-0",
          "backdrop:bg-slate-900/50 backdrop:transition-opacity backdrop:duration-300 data-[state=closing]:backdrop:opacity-0",
          backdropFadesIn && "backdrop:motion-safe:animate-[fade-in_300ms_ease-out]",
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
      </dialog>
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
