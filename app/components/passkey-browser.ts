// The browser's half of passkeys: @simplewebauthn/browser is loaded on demand (when a passkey is
// added, the sign-in button is pressed or the e-mail field offers autofill), never with the page.
// Each call asks our server for a challenge, lets the browser's passkey prompt answer it, and
// sends the answer back; errors come back as text for the page to show.
import { PASSKEY_MESSAGES as M } from "~/lib/auth/passkey-messages";

type Outcome = { ok: true; destination?: string } | { ok: false; error: string | null; confirm?: string };

const loadBrowser = () => import("@simplewebauthn/browser");

async function errorOf(response: Response): Promise<string> {
  const body = (await response.json().catch(() => null)) as { error?: string } | null;
  return body?.error ?? M.signInFailed;
}

/**
 * The prompt's failure as text: closed by its user (or replaced by another) is worth no message
 * where `silentAbort`; an authenticator that already holds one of the account's passkeys says so.
 */
function promptError(error: unknown, silentAbort: boolean, fallback: string): string | null {
  const name = error instanceof Error ? error.name : "";
  if (name === "NotAllowedError" || name === "AbortError") return silentAbort ? null : M.cancelled;
  if (name === "InvalidStateError") return M.alreadyOnDevice;
  return fallback;
}

/** Adds a passkey named `name` to the signed-in account (the profile's card). */
export async function addPasskey(name: string): Promise<Outcome> {
  const { browserSupportsWebAuthn, startRegistration } = await loadBrowser();
  if (!browserSupportsWebAuthn()) return { ok: false, error: M.unsupported };
  const post = (fields: Record<string, string>) =>
    fetch("/dashboard/profile/passkeys", { method: "POST", body: new URLSearchParams(fields), headers: { Accept: "application/json" } });
  const started = await post({ intent: "options" });
  if (started.status === 403) {
    // The session's proof ran out while the page was open: "Confirm it's you" first, then back.
    const body = (await started.json().catch(() => null)) as { confirm?: string; error?: string } | null;
    if (body?.confirm) return { ok: false, error: null, confirm: body.confirm };
  }
  if (!started.ok) return { ok: false, error: await errorOf(started) };
  const { options } = (await started.json()) as { options: Parameters<typeof startRegistration>[0]["optionsJSON"] };
  let response: Awaited<ReturnType<typeof startRegistration>>;
  try {
    response = await startRegistration({ optionsJSON: options });
  } catch (error) {
    return { ok: false, error: promptError(error, false, M.notVerified) };
  }
  const saved = await post({ intent: "register", name, response: JSON.stringify(response) });
  return saved.ok ? { ok: true } : { ok: false, error: await errorOf(saved) };
}

/**
 * Signs in with a passkey: from the button (`autofill` false) or through the e-mail field's
 * autofill (conditional mediation, which waits until the user picks a passkey there). `search`
 * carries the page's query, so the destination is the password form's.
 */
export async function signInWithPasskey(search: string, autofill: boolean, signal?: AbortSignal): Promise<Outcome> {
  const { browserSupportsWebAuthn, browserSupportsWebAuthnAutofill, startAuthentication, WebAuthnAbortService } = await loadBrowser();
  if (!browserSupportsWebAuthn()) return { ok: false, error: autofill ? null : M.unsupported };
  if (autofill && !(await browserSupportsWebAuthnAutofill())) return { ok: false, error: null };
  if (signal?.aborted) return { ok: false, error: null };
  signal?.addEventListener("abort", () => WebAuthnAbortService.cancelCeremony());
  const started = await fetch("/auth/passkey/options", { method: "POST" });
  if (!started.ok) return { ok: false, error: autofill ? null : await errorOf(started) };
  const { options } = (await started.json()) as { options: Parameters<typeof startAuthentication>[0]["optionsJSON"] };
  let response: Awaited<ReturnType<typeof startAuthentication>>;
  try {
    response = await startAuthentication({ optionsJSON: options, useBrowserAutofill: autofill });
  } catch (error) {
    return { ok: false, error: promptError(error, autofill, M.signInFailed) };
  }
  const verified = await fetch(`/auth/passkey/verify${search}`, {
    method: "POST",
    body: JSON.stringify({ response }),
    headers: { "Content-Type": "application/json" },
  });
  if (!verified.ok) return { ok: false, error: await errorOf(verified) };
  const body = (await verified.json()) as { destination: string };
  return { ok: true, destination: body.destination };
}
