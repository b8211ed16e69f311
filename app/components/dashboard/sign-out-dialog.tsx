import { useFetcher, Link } from "react-router";
import { UrlModal } from "../modal";
import { Alert, buttonClass } from "../ui";

// Spec: Sign Out asks for confirmation (Cancel / Sign Out), clears local and session
// storage and goes home. The dialog is a URL state (?confirm=signout), so it works without JS.
export function SignOutDialog({ cancelTo }: { cancelTo: string }) {
  const fetcher = useFetcher<{ error?: string }>();
  const busy = fetcher.state !== "idle";
  return (
    <UrlModal closeTo={cancelTo} labelledBy="sign-out-title">
      <h2 id="sign-out-title" className="text-lg font-semibold text-slate-900">
        Sign Out
      </h2>
      <p className="mt-2 text-sm text-slate-600">Are you sure you want to sign out of Modelify on this device?</p>
      {fetcher.data?.error ? (
        <Alert tone="error" className="mt-4">
          {fetcher.data.error}
        </Alert>
      ) : null}
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
    </UrlModal>
  );
}
