// The profile's "Passkeys": the account's passkeys with when each was added and last used, a
// form to rename or remove each (plain HTML forms to /dashboard/profile/passkeys, which answers
// with a redirect back here, ?passkeys=<outcome>), and adding one, which needs the browser's
// passkey prompt and so JavaScript.
import { useState } from "react";
import { useNavigate, useRevalidator, useSearchParams, Link } from "react-router";
import { confirmUrl } from "~/lib/auth/modes";
import { PASSKEY } from "~/lib/constants";
import { PASSKEY_MESSAGES as M, type PasskeyOutcome } from "~/lib/auth/passkey-messages";
import type { PasskeyView } from "~/lib/auth/passkeys.server";
import { Field } from "../forms";
import { addPasskey } from "../passkey-browser";
import { Alert, buttonClass, Card, LineIcon, useHydrated } from "../ui";
import { useFormat } from "~/components/format";

const ACTION = "/dashboard/profile/passkeys";
const KEY_ICON = "M15 7a4 4 0 1 1-7.75 1.4L3 12.6V16h3.4v-2.2h2.2v-2.2l1.4-1.4A4 4 0 0 1 15 7Zm1.5-.5h.01";

const NOTICES: Record<PasskeyOutcome, { tone: "success" | "error"; text: string }> = {
  added: { tone: "success", text: M.added },
  renamed: { tone: "success", text: M.renamed },
  removed: { tone: "success", text: M.removed },
  "not-found": { tone: "error", text: M.notFound },
  invalid: { tone: "error", text: M.invalid },
};

function Notice() {
  const [params] = useSearchParams();
  const outcome = params.get("passkeys");
  const notice = outcome && Object.hasOwn(NOTICES, outcome) ? NOTICES[outcome as PasskeyOutcome] : null;
  return notice ? (
    <Alert tone={notice.tone} className="mt-4">
      {notice.text}
    </Alert>
  ) : null;
}

/**
 * `proofNeeded`: the session has no recent proof, so adding or removing one starts with "Confirm
 * it's you". `returnTo`: the page the forms come back to (the profile, or the access review).
 */
export function PasskeysCard({ passkeys, proofNeeded, returnTo = "/dashboard/profile" }: { passkeys: PasskeyView[]; proofNeeded: boolean; returnTo?: string }) {
  return (
    <section aria-labelledby="passkeys-title">
      <Card className="p-6">
        <h2 id="passkeys-title" className="text-lg font-semibold text-slate-900">
          Passkeys
        </h2>
        <p className="mt-1 text-sm text-slate-600">
          Sign in with your fingerprint, face or screen lock instead of your password. A passkey stays on your device (or in your password manager), and a
          passkey sign-in needs no second step.
        </p>
        <Notice />
        {passkeys.length > 0 ? (
          <ul className="mt-4 divide-y divide-slate-100" aria-label="Your passkeys">
            {passkeys.map((passkey) => (
              <PasskeyRow key={passkey.id} passkey={passkey} returnTo={returnTo} />
            ))}
          </ul>
        ) : (
          <p className="mt-4 text-sm text-slate-600">You have no passkeys yet.</p>
        )}
        <div className="mt-4 border-t border-slate-100 pt-4">
          {passkeys.length >= PASSKEY.maxPerUser ? (
            <p className="text-sm text-slate-600">{M.tooMany}</p>
          ) : proofNeeded ? (
            <ConfirmFirst returnTo={returnTo} />
          ) : (
            <AddPasskey count={passkeys.length} />
          )}
        </div>
      </Card>
    </section>
  );
}

function PasskeyRow({ passkey, returnTo }: { passkey: PasskeyView; returnTo: string }) {
  const f = useFormat();
  const factsId = `passkey-${passkey.id}-facts`;
  return (
    <li className="flex flex-col gap-3 py-4 sm:flex-row sm:items-start sm:justify-between" data-testid="passkey">
      <div className="flex min-w-0 items-start gap-3">
        <span className="flex h-10 w-10 shrink-0 items-center justify-center rounded-xl bg-brand-50 text-brand-600">
          <LineIcon d={KEY_ICON} />
        </span>
        <div className="min-w-0">
          <p className="flex flex-wrap items-center gap-x-2 gap-y-1">
            <span className="break-words font-medium text-slate-900">{passkey.name}</span>
            {passkey.synced ? <span className="rounded-full bg-slate-100 px-2.5 py-0.5 text-xs font-semibold text-slate-700">Synced</span> : null}
          </p>
          <p id={factsId} className="mt-0.5 text-sm text-slate-600">
            Added {f.date(passkey.createdAt)}
            <span aria-hidden="true"> · </span>
            <span className="sr-only">. </span>
            {passkey.lastUsedAt ? `Last used ${f.dateTime(passkey.lastUsedAt)}` : "Never used to sign in"}
          </p>
          {/* A disclosure, so renaming works without JavaScript too. */}
          <details className="mt-2">
            <summary className="w-fit cursor-pointer rounded text-sm font-medium text-brand-700 hover:text-brand-800">
              Rename<span className="sr-only"> passkey: {passkey.name}</span>
            </summary>
            <RenameForm passkey={passkey} returnTo={returnTo} />
          </details>
        </div>
      </div>
      <form method="post" action={ACTION} className="shrink-0 pl-13 sm:pl-0">
        <input type="hidden" name="intent" value="remove" />
        <input type="hidden" name="id" value={passkey.id} />
        <input type="hidden" name="next" value={returnTo} />
        <button type="submit" aria-label={`Remove passkey: ${passkey.name}`} aria-describedby={factsId} className={buttonClass("secondary", "sm")}>
          Remove
        </button>
      </form>
    </li>
  );
}

function RenameForm({ passkey, returnTo }: { passkey: PasskeyView; returnTo: string }) {
  return (
    <form method="post" action={ACTION} className="mt-2 flex flex-col gap-2 sm:flex-row sm:items-end">
      <input type="hidden" name="intent" value="rename" />
      <input type="hidden" name="id" value={passkey.id} />
      <input type="hidden" name="next" value={returnTo} />
      <Field
        className="flex-1"
        labelProps={{ children: "New name" }}
        inputProps={{ name: "name", defaultValue: passkey.name, required: true, maxLength: PASSKEY.nameMaxLength, autoComplete: "off" }}
      />
      <button type="submit" className={buttonClass("primary", "sm", "sm:mb-0.5")}>
        Save name
      </button>
    </form>
  );
}

/** A passkey is a way in: adding one asks for the password (and a code) first, on its own page. */
function ConfirmFirst({ returnTo }: { returnTo: string }) {
  return (
    <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
      <p className="text-sm text-slate-600">{M.confirmToAdd}</p>
      <Link to={confirmUrl(`${returnTo}#passkeys-title`)} className={buttonClass("primary", "sm", "shrink-0")}>
        Confirm it's you
      </Link>
    </div>
  );
}

function AddPasskey({ count }: { count: number }) {
  const hydrated = useHydrated();
  const revalidator = useRevalidator();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ tone: "success" | "error"; text: string } | null>(null);
  if (!hydrated) return <p className="text-sm text-slate-600">{M.needsJavaScript}</p>;
  const onSubmit = async (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const name = String(new FormData(event.currentTarget).get("name") ?? "").trim();
    setBusy(true);
    setMessage(null);
    const outcome = await addPasskey(name).catch(() => ({ ok: false as const, error: M.notVerified as string | null, confirm: undefined }));
    setBusy(false);
    if (!outcome.ok && outcome.confirm) {
      await navigate(outcome.confirm);
      return;
    }
    if (outcome.ok) {
      setMessage({ tone: "success", text: M.added });
      await revalidator.revalidate();
    } else if (outcome.error) setMessage({ tone: "error", text: outcome.error });
  };
  return (
    <form onSubmit={onSubmit} className="space-y-3">
      {message ? (
        <Alert tone={message.tone} className="mb-2">
          {message.text}
        </Alert>
      ) : null}
      <div className="flex flex-col gap-2 sm:flex-row sm:items-end">
        <Field
          className="flex-1"
          labelProps={{ children: "Passkey name" }}
          hint="So you can tell your passkeys apart, e.g. the device or password manager that keeps it."
          inputProps={{ name: "name", defaultValue: `Passkey ${count + 1}`, required: true, maxLength: PASSKEY.nameMaxLength, autoComplete: "off" }}
        />
        <button type="submit" disabled={busy} className={buttonClass("primary", "sm", "sm:mb-6")}>
          {busy ? "Waiting for your passkey..." : "Add a passkey"}
        </button>
      </div>
    </form>
  );
}
