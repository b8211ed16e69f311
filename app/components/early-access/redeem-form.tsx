// The activation-key form, on /activate and on the dashboard's overview. It posts to /activate:
// on /activate itself as the page's own form (its answer stays while the page reloads its data);
// elsewhere through a fetcher (the page stays put and its loaders refresh), or without JavaScript
// as a plain form whose answer /activate renders.
import { Form, useFetcher, useNavigation, Link } from "react-router";
import { Field } from "../forms";
import { Alert, SubmitButton } from "../ui";
import { useFormat } from "~/components/format";

export type RedeemActionData = { ok: true; message: string; expiresAt: number } | { ok: false; message: string };

export function RedeemKeyForm({
  defaultKey,
  answer,
  compact,
  onActivatePage,
}: {
  /** A key waiting from its e-mail link, to fill in. */
  defaultKey?: string | null;
  /** The answer of a no-JavaScript post, rendered by /activate. */
  answer?: RedeemActionData | null;
  compact?: boolean;
  onActivatePage?: boolean;
}) {
  const f = useFormat();
  const fetcher = useFetcher<RedeemActionData>();
  const navigation = useNavigation();
  const result = (onActivatePage ? null : fetcher.data) ?? answer ?? null;
  const pending = onActivatePage ? navigation.state === "submitting" && navigation.formAction === "/activate" : fetcher.state !== "idle";
  const PostForm = onActivatePage ? Form : fetcher.Form;
  if (result?.ok) {
    return (
      <div data-testid="redeem-success">
        <Alert tone="success">{result.message}</Alert>
        <p className="mt-3 text-sm text-slate-700">
          Early access is active until <span className="font-semibold text-slate-900">{f.date(result.expiresAt)}</span>.
        </p>
      </div>
    );
  }
  return (
    <PostForm method="post" action="/activate" className={compact ? "space-y-3" : "space-y-4"}>
      <Field
        labelProps={{ children: "Activation key" }}
        inputProps={{
          id: "activation-key",
          name: "key",
          type: "text",
          required: true,
          maxLength: 40,
          defaultValue: defaultKey ?? "",
          autoComplete: "off",
          autoCapitalize: "characters",
          spellCheck: false,
          placeholder: "XXXX-XXXX-XXXX-XXXX",
          className: "font-mono uppercase tracking-wider placeholder:normal-case placeholder:tracking-normal",
        }}
        errors={result && !result.ok ? [result.message] : undefined}
        announceErrors
        hint="16 letters and numbers, with or without dashes."
      />
      <SubmitButton pending={pending} idle="Activate Early Access" busy="Activating..." size={compact ? "sm" : "lg"} className={compact ? "" : "w-full"} />
    </PostForm>
  );
}

/** Under a "subscribe" prompt: early access unlocks the same things. */
export function RedeemKeyHint() {
  return (
    <p className="mt-4 text-sm text-slate-600">
      Have an early-access key?{" "}
      <Link to="/activate" className="rounded font-semibold text-brand-700 hover:text-brand-800">
        Redeem it
      </Link>
    </p>
  );
}
