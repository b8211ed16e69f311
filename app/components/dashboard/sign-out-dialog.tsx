import { useEffect, useRef } from "react";
import { Link, useFetcher, useNavigate } from "react-router";
import { Alert, buttonClass } from "../ui";

// Spec: Sign Out asks for confirmation (Cancel / Sign Out), clears local and session
// storage and goes home. The dialog is a URL state (?confirm=signout), so it works without JS.
export function SignOutDialog({ cancelTo }: { cancelTo: string }) {
  const fetcher = useFetcher<{ error?: string }>();
  const navigate = useNavigate();
  const dialogRef = useRef<HTMLDivElement>(null);
  const busy = fetcher.state !== "idle";

  useEffect(() => {
    dialogRef.current?.querySelector<HTMLElement>("[data-autofocus]")?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") navigate(cancelTo, { replace: true, preventScrollReset: true });
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [cancelTo, navigate]);

  return (
    <div className="fixed inset-0 z-50 flex items-center justify-center p-4">
      <Link to={cancelTo} replace preventScrollReset aria-label="Close" className="absolute inset-0 bg-slate-900/50" tabIndex={-1} />
      <div ref={dialogRef} role="dialog" aria-modal="true" aria-labelledby="sign-out-title" className="relative w-full max-w-sm rounded-2xl bg-white p-6 shadow-xl">
        <h2 id="sign-out-title" className="text-lg font-semibold text-slate-900">
          Sign Out
        </h2>
        <p className="mt-2 text-sm text-slate-600">Are you sure you want to sign out of Modelify on this device?</p>
        {fetcher.data?.error ? <Alert tone="error" className="mt-4">{fetcher.data.error}</Alert> : null}
        <div className="mt-6 flex justify-end gap-3">
          <Link to={cancelTo} replace preventScrollReset className={buttonClass("secondary")} data-autofocus>
            Cancel
          </Link>
          <fetcher.Form
            method="post"
            action="/auth/sign-out"
            onSubmit={() => {
              try {
                localStorage.clear();
                sessionStorage.clear();
              } catch {
                // Storage can be unavailable (privacy modes); signing out must not depend on it.
              }
            }}
          >
            <input type="hidden" name="redirectTo" value="/" />
            <button type="submit" className={buttonClass("danger")} disabled={busy}>
              {busy ? "Signing Out..." : "Sign Out"}
            </button>
          </fetcher.Form>
        </div>
      </div>
    </div>
  );
}
