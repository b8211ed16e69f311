// The profile's phone verification: a button that opens the dialog (?phone=verify), and the
// dialog itself. Opening it texts a code at once (unless one is still live); the code lives
// PHONE_CODE.ttlSeconds, shown as a countdown, and Resend stays off until it ends. Both work
// without JavaScript: every button is a form posting to /dashboard/profile/phone, which answers
// with a redirect back here carrying the outcome (?phoneError=…, ?phoneResult=verified).
import { type ChangeEvent, type FormEvent, type RefObject, useEffect, useState } from "react";
import { useLocation, useNavigate, useSearchParams, Link } from "react-router";
import { PHONE_CODE, REDIRECT_DELAY_MS } from "~/lib/constants";
import { PHONE_MESSAGES } from "~/lib/profile/messages";
import type { PhoneStatus } from "~/lib/profile/view";
import { UrlModal, withParam } from "../modal";
import { Field } from "../forms";
import { Alert, buttonClass, CheckIcon, IconTile, Spinner, useHydrated } from "../ui";
import { type Busy, PHONE_ROUTE, type PhoneDialogProps, useCloseAfterSuccess, usePhoneVerification, type View } from "./use-phone-verification";

const PHONE_ICON = "M8.5 2.5h7A1.5 1.5 0 0 1 17 4v16a1.5 1.5 0 0 1-1.5 1.5h-7A1.5 1.5 0 0 1 7 20V4a1.5 1.5 0 0 1 1.5-1.5zM11 18.5h2";

function formatCountdown(seconds: number): string {
  const m = Math.floor(seconds / 60);
  const s = seconds % 60;
  return `${String(m).padStart(2, "0")}:${String(s).padStart(2, "0")}`;
}

/** Whole seconds until `expiresAt`, ticking once a second. */
function useSecondsLeft(expiresAt: number | null): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (expiresAt === null) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [expiresAt]);
  return expiresAt === null ? 0 : Math.max(0, Math.ceil((expiresAt - now) / 1000));
}

type VerifyingView = Extract<View, { step: "verifying" }>;

export function PhoneDialog(props: PhoneDialogProps) {
  const { closeTo } = props;
  const [params] = useSearchParams();
  const hydrated = useHydrated();
  const { view, busy, code, codeInput, onSend, onVerify, onCodeChange } = usePhoneVerification(props, params);
  const justVerified = useCloseAfterSuccess(view, params, props);

  return (
    <UrlModal closeTo={closeTo} labelledBy="phone-dialog-title">
      <div className="flex items-start gap-3 pr-8">
        <IconTile d={PHONE_ICON} />
        <div>
          <h2 id="phone-dialog-title" className="text-lg font-semibold text-slate-900">
            Verify Phone Number
          </h2>
          <p className="mt-0.5 text-sm text-slate-600">We text a {PHONE_CODE.digits}-digit code to the number in your profile.</p>
        </div>
      </div>
      {view.step === "initial" ? <SendingStep phoneNumber={props.phoneNumber} /> : null}
      {view.step === "verifying" ? (
        <VerifyingStep
          view={view}
          code={code}
          busy={busy}
          hydrated={hydrated}
          codeInput={codeInput}
          onCodeChange={onCodeChange}
          onVerify={onVerify}
          onSend={onSend}
        />
      ) : null}
      {view.step === "success" ? <SuccessStep phone={view.phone} justVerified={justVerified} closeTo={closeTo} /> : null}
      {view.step === "error" ? <ErrorStep error={view.error} canRetry={Boolean(props.phoneNumber)} busy={busy} closeTo={closeTo} onSend={onSend} /> : null}
    </UrlModal>
  );
}

/** Sending the first code: automatic with JavaScript, a Send Code button without. */
function SendingStep({ phoneNumber }: { phoneNumber: string | null }) {
  return (
    <div className="mt-6 flex flex-col items-center gap-3 py-4 text-center" data-testid="phone-dialog-sending">
      <Spinner className="h-7 w-7 text-brand-600" label="Sending verification code" />
      <p className="text-sm text-slate-600">
        Sending a verification code to <span className="font-medium text-slate-900">{phoneNumber}</span>...
      </p>
      <noscript>
        <form method="post" action={PHONE_ROUTE}>
          <input type="hidden" name="intent" value="send" />
          <button type="submit" className={buttonClass("primary")}>
            Send Code
          </button>
        </form>
      </noscript>
    </div>
  );
}

function SuccessStep({ phone, justVerified, closeTo }: { phone: string; justVerified: boolean; closeTo: string }) {
  return (
    <div className="mt-6 text-center">
      <span className="mx-auto flex h-12 w-12 items-center justify-center rounded-full bg-emerald-50 text-emerald-600">
        <CheckIcon className="h-6 w-6" bold />
      </span>
      <Alert tone="success" className="mt-4">
        {PHONE_MESSAGES.verified}
      </Alert>
      {phone ? <p className="mt-3 text-sm text-slate-600">{phone} is verified on your account.</p> : null}
      {justVerified ? (
        <noscript>
          <meta httpEquiv="refresh" content={`${Math.round(REDIRECT_DELAY_MS.phoneDialogClose / 1000)};url=${closeTo}`} />
        </noscript>
      ) : null}
      <Link to={closeTo} replace preventScrollReset className={buttonClass("secondary", "md", "mt-5")}>
        Close
      </Link>
    </div>
  );
}

function ErrorStep({
  error,
  canRetry,
  busy,
  closeTo,
  onSend,
}: {
  error: string;
  /** A number is saved to send a code to. */
  canRetry: boolean;
  busy: Busy;
  closeTo: string;
  onSend: (event: FormEvent<HTMLFormElement>) => void;
}) {
  return (
    <div className="mt-6">
      <Alert tone="error">{error}</Alert>
      <div className="mt-5 flex flex-wrap justify-end gap-3">
        <Link to={closeTo} replace preventScrollReset className={buttonClass("secondary")}>
          Close
        </Link>
        {canRetry ? (
          <form method="post" action={PHONE_ROUTE} onSubmit={onSend}>
            <input type="hidden" name="intent" value="send" />
            <button type="submit" className={buttonClass("primary")} disabled={busy !== null}>
              {busy === "send" ? <Spinner className="h-4 w-4" label="Sending" /> : null}
              {busy === "send" ? "Sending..." : "Try Again"}
            </button>
          </form>
        ) : null}
      </div>
    </div>
  );
}

/** How long the code has left, or that it has expired. */
function CodeCountdown({ expired, secondsLeft }: { expired: boolean; secondsLeft: number }) {
  return (
    <p className="mt-2 text-sm text-slate-600" data-testid="phone-countdown">
      {expired ? (
        "The code has expired. Please request a new one."
      ) : (
        <>
          Code expires in{" "}
          <span className="font-mono font-semibold text-slate-900 tabular-nums" suppressHydrationWarning>
            {formatCountdown(secondsLeft)}
          </span>
        </>
      )}
    </p>
  );
}

function VerifyingStep({
  view,
  code,
  busy,
  hydrated,
  codeInput,
  onCodeChange,
  onVerify,
  onSend,
}: {
  view: VerifyingView;
  code: string;
  busy: Busy;
  hydrated: boolean;
  codeInput: RefObject<HTMLInputElement | null>;
  onCodeChange: (event: ChangeEvent<HTMLInputElement>) => void;
  onVerify: (event: FormEvent<HTMLFormElement>) => void;
  onSend: (event: FormEvent<HTMLFormElement>) => void;
}) {
  const secondsLeft = useSecondsLeft(view.expiresAt);
  const expired = secondsLeft === 0;
  const canResend = (expired || view.needsNewCode) && busy === null;
  // Without JavaScript the browser checks the pattern; with it, Verify waits for six digits.
  const verifyDisabled = busy !== null || (hydrated && (code.length !== PHONE_CODE.digits || expired));
  return (
    <div className="mt-6">
      <p className="text-sm text-slate-600">
        Enter the code we sent to <span className="font-medium text-slate-900">{view.phone}</span>, or open the link in the message.
      </p>
      <CodeCountdown expired={expired} secondsLeft={secondsLeft} />
      {view.error ? (
        <Alert tone="error" className="mt-4">
          {view.error}
        </Alert>
      ) : null}
      <form method="post" action={PHONE_ROUTE} onSubmit={onVerify} className="mt-4">
        <input type="hidden" name="intent" value="verify" />
        {/* A refused code is the alert above; the field is marked invalid and keeps its hint. */}
        <Field
          labelProps={{ children: "Verification code" }}
          inputProps={{
            ref: codeInput,
            id: "phone-code",
            name: "code",
            className: "text-center font-mono text-lg tracking-[0.5em]",
            inputMode: "numeric",
            autoComplete: "one-time-code",
            pattern: `\\d{${PHONE_CODE.digits}}`,
            maxLength: PHONE_CODE.digits,
            required: true,
            placeholder: "000000",
            value: code,
            onChange: onCodeChange,
            "aria-invalid": view.codeRefused ? true : undefined,
          }}
          hint={`${PHONE_CODE.digits} digits, numbers only.`}
        />
        <button type="submit" className={buttonClass("primary", "md", "mt-4 w-full")} disabled={verifyDisabled}>
          {busy === "verify" ? <Spinner className="h-4 w-4" label="Verifying" /> : null}
          {busy === "verify" ? "Verifying..." : "Verify"}
        </button>
      </form>
      <form method="post" action={PHONE_ROUTE} onSubmit={onSend} className="mt-3 text-center">
        <input type="hidden" name="intent" value="send" />
        <button type="submit" className={buttonClass("ghost", "sm")} disabled={!canResend}>
          {busy === "send" ? "Sending..." : expired || view.needsNewCode ? "Resend Code" : `Resend in ${formatCountdown(secondsLeft)}`}
        </button>
      </form>
    </div>
  );
}

/**
 * Opens the phone dialog. A form posting intent=send, so without JavaScript the server texts the
 * code and comes back with the dialog open; with it, the button only opens the dialog (which sends).
 */
export function PhoneVerifyButton({ status, className }: { status: PhoneStatus; className?: string }) {
  const navigate = useNavigate();
  const location = useLocation();
  if (status === "verified") return null;
  const open = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    navigate(withParam(location.pathname, location.search, "phone", "verify"), { preventScrollReset: true });
  };
  return (
    <form method="post" action={PHONE_ROUTE} onSubmit={open} className={className}>
      <input type="hidden" name="intent" value="send" />
      <button type="submit" aria-haspopup="dialog" className={buttonClass("secondary", "sm")}>
        {status === "pending" ? "Enter code" : "Verify phone"}
      </button>
    </form>
  );
}
