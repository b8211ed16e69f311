// /auth's passkey sign-in: the "Sign in with a passkey" button, and the e-mail field's autofill
// (conditional mediation: the browser lists the account's passkeys under the field, and picking
// one signs in). Both need JavaScript; before hydration the button is not shown. The WebAuthn
// library loads after the page has hydrated, in its own chunk.
import { useEffect, useState } from "react";
import { Alert, Button, useHydrated } from "./ui";
import { signInWithPasskey } from "./passkey-browser";

export function PasskeySignIn({ search }: { search: string }) {
  const hydrated = useHydrated();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  // Autofill waits in the background until the user picks a passkey in the e-mail field's list.
  useEffect(() => {
    if (!hydrated) return;
    const controller = new AbortController();
    void signInWithPasskey(search, true, controller.signal).then((outcome) => {
      if (controller.signal.aborted) return;
      if (outcome.ok) window.location.assign(outcome.destination ?? "/dashboard");
      else if (outcome.error) setError(outcome.error);
    });
    return () => controller.abort();
  }, [hydrated, search]);

  if (!hydrated) return null;
  const onClick = async () => {
    setBusy(true);
    setError(null);
    const outcome = await signInWithPasskey(search, false).catch(() => ({ ok: false as const, error: null }));
    if (outcome.ok) {
      window.location.assign(outcome.destination ?? "/dashboard");
      return;
    }
    setBusy(false);
    if (outcome.error) setError(outcome.error);
  };
  return (
    <div className="mt-4 space-y-3">
      <div className="flex items-center gap-3 text-xs text-slate-500" aria-hidden="true">
        <span className="h-px flex-1 bg-slate-200" />
        or
        <span className="h-px flex-1 bg-slate-200" />
      </div>
      {error ? <Alert tone="error">{error}</Alert> : null}
      <Button type="button" variant="secondary" className="w-full" onClick={onClick} disabled={busy}>
        {busy ? "Waiting for your passkey..." : "Sign in with a passkey"}
      </Button>
    </div>
  );
}
