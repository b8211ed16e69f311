// The profile's phone verification: a button that opens the dialog (?phone=verify), and the
// dialog itself. Opening it texts a code at once (unless one is still live); the code lives
// PHONE_CODE.ttlSeconds, shown as a countdown, and Resend stays off until it ends. Both work
// without JavaScript: every button is a form posting to /dashboard/profile/phone, which answers
// with a redirect back here carrying the outcome (?phoneError=…, ?phoneResult=verified).
import { type ChangeEvent, type FormEvent, type RefObject, useCallback, useEffect, useRef, useState } from "react";
import { Link, useLocation, useNavigate, useSearchParams } from "react-router";
import { PHONE_CODE, REDIRECT_DELAY_MS } from "~/lib/constants";
import { needsNewCode, type PhoneFailure, parsePhoneFailure, parseWaitMinutes, phoneFailureMessage } from "~/lib/phone/outcome";
import { PHONE_MESSAGES } from "~/lib/profile/messages";
import type { PhoneStatus } from "~/lib/profile/view";
import { UrlModal, withParam } from "../modal";
import { Field } from "../forms";
import { Alert, buttonClass, CheckIcon, IconTile, Spinner, useHydrated } from "../ui";

const ROUTE = "/dashboard/profile/phone";
const PHONE_ICON = "M8.5 2.5h7A1.5 1.5 0 0 1 17 4v16a1.5 1.5 0 0 1-1.5 1.5h-7A1.5 1.5 0 0 1 7 20V4a1.5 1.5 0 0 1 1.5-1.5zM11 18.5h2";

export type PhoneDialogProps = {
  /** The profile's number as saved, or null. */
  phoneNumber: string | null;
  status: PhoneStatus;
  /** While status is "pending": when the live code expires (epoch ms). */
  codeExpiresAt: number | null;
  /** Where Escape, the backdrop, Close and the closing after success go (the profile without ?phone). */
  closeTo: string;
  /** Called with the verified number just before the dialog closes after a success. */
  onVerified?: (phone: string) => void;
};

type View =
  | { step: "initial" }
  | { step: "verifying"; phone: string; expiresAt: number; error: string | null; codeRefused: boolean; needsNewCode: boolean }
  | { step: "success"; phone: string }
  | { step: "error"; error: string };

type Answer =
  | { ok: true; state: "verifying"; phone: string; expiresAt: number; expiresIn: number }
  | { ok: true; state: "verified"; phone: string }
  | { ok: false; reason?: PhoneFailure; error: string };

/** One call to the phone route, as JSON, given up after PHONE_CODE.requestTimeoutMs. */
async function callPhoneRoute(fields: Record<string, string>, fallbackError: string): Promise<Answer> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), PHONE_CODE.requestTimeoutMs);
  try {
    const response = await fetch(ROUTE, {
      method: "POST",
      body: new URLSearchParams(fields),
      headers: { Accept: "application/json" },
      credentials: "same-origin",
      signal: controller.signal,
    });
    const body = (await response.json()) as Answer;
    if (typeof body?.ok !== "boolean") return { ok: false, error: fallbackError };
    return body.ok || typeof body.error === "string" ? body : { ok: false, error: fallbackError };
  } catch {
    return { ok: false, error: controller.signal.aborted ? PHONE_MESSAGES.timedOut : fallbackError };
  } finally {
    clearTimeout(timer);
  }
}

function initialView(props: PhoneDialogProps, params: URLSearchParams): View {
  const phone = props.phoneNumber ?? "";
  if (params.get("phoneResult") === "verified" || props.status === "verified") return { step: "success", phone };
  if (!props.phoneNumber) return { step: "error", error: PHONE_MESSAGES.noPhone };
  const failure = parsePhoneFailure(params.get("phoneError"));
  const message = failure ? phoneFailureMessage(failure, parseWaitMinutes(params.get("phoneWait"))) : null;
  if (props.status === "pending" && props.codeExpiresAt !== null && props.codeExpiresAt > Date.now()) {
    return {
      step: "verifying",
      phone,
      expiresAt: props.codeExpiresAt,
      error: message,
      codeRefused: failure === "invalid-code",
      needsNewCode: failure ? needsNewCode(failure) : false,
    };
  }
  if (message) return { step: "error", error: message };
  return { step: "initial" };
}

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

export function PhoneDialog(props: PhoneDialogProps) {
  const { closeTo, onVerified } = props;
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const hydrated = useHydrated();
  const [view, setView] = useState<View>(() => initialView(props, params));
  const [busy, setBusy] = useState<"send" | "verify" | null>(null);
  const [code, setCode] = useState("");
  const codeInput = useRef<HTMLInputElement>(null);
  const autoSent = useRef(false);

  const send = useCallback(async () => {
    setBusy("send");
    const answer = await callPhoneRoute({ intent: "send" }, PHONE_MESSAGES.sendFailed);
    setBusy(null);
    setCode("");
    if (!answer.ok) setView({ step: "error", error: answer.error });
    else if (answer.state === "verified") setView({ step: "success", phone: answer.phone });
    // The server's remaining time, counted on this clock: a skewed clock cannot shorten it.
    else
      setView({
        step: "verifying",
        phone: answer.phone,
        expiresAt: Date.now() + answer.expiresIn * 1000,
        error: null,
        codeRefused: false,
        needsNewCode: false,
      });
  }, []);

  // Opening the dialog sends the code (the server keeps a live one instead of sending again).
  useEffect(() => {
    if (view.step !== "initial" || autoSent.current) return;
    autoSent.current = true;
    void send();
  }, [view.step, send]);

  const verifying = view.step === "verifying";
  useEffect(() => {
    if (verifying) codeInput.current?.focus();
  }, [verifying]);

  const success = view.step === "success" ? view.phone : null;
  const justVerified = success !== null && (params.get("phoneResult") === "verified" || props.status !== "verified");
  const onVerifiedRef = useRef(onVerified);
  onVerifiedRef.current = onVerified;
  useEffect(() => {
    if (!justVerified || success === null) return;
    const timer = setTimeout(() => {
      onVerifiedRef.current?.(success);
      navigate(closeTo, { replace: true, preventScrollReset: true });
    }, REDIRECT_DELAY_MS.phoneDialogClose);
    return () => clearTimeout(timer);
  }, [justVerified, success, closeTo, navigate]);

  const onSend = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    void send();
  };

  const onVerify = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy || view.step !== "verifying" || code.length !== PHONE_CODE.digits) return;
    setBusy("verify");
    const answer = await callPhoneRoute({ intent: "verify", code }, PHONE_MESSAGES.verifyFailed);
    setBusy(null);
    if (answer.ok) {
      setView({ step: "success", phone: answer.phone });
      return;
    }
    setCode("");
    const newCode = answer.reason ? needsNewCode(answer.reason) : false;
    if (answer.reason === "not-authenticated") setView({ step: "error", error: answer.error });
    else setView({ ...view, error: answer.error, codeRefused: answer.reason === "invalid-code", needsNewCode: view.needsNewCode || newCode });
    codeInput.current?.focus();
  };

  const onCodeChange = (event: ChangeEvent<HTMLInputElement>) => setCode(event.target.value.replace(/\D/g, "").slice(0, PHONE_CODE.digits));

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

      {view.step === "initial" ? (
        <div className="mt-6 flex flex-col items-center gap-3 py-4 text-center" data-testid="phone-dialog-sending">
          <Spinner className="h-7 w-7 text-brand-600" label="Sending verification code" />
          <p className="text-sm text-slate-600">
            Sending a verification code to <span className="font-medium text-slate-900">{props.phoneNumber}</span>...
          </p>
          <noscript>
            <form method="post" action={ROUTE}>
              <input type="hidden" name="intent" value="send" />
              <button type="submit" className={buttonClass("primary")}>
                Send Code
              </button>
            </form>
          </noscript>
        </div>
      ) : null}

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

      {view.step === "success" ? (
        <div className="mt-6 text-center">
          <span className="mx-auto flex h-12 w-12 items-center justify-center rounded-full bg-emerald-50 text-emerald-600">
            <CheckIcon className="h-6 w-6" bold />
          </span>
          <Alert tone="success" className="mt-4">
            {PHONE_MESSAGES.verified}
          </Alert>
          {view.phone ? <p className="mt-3 text-sm text-slate-600">{view.phone} is verified on your account.</p> : null}
          {justVerified ? (
            <noscript>
              <meta httpEquiv="refresh" content={`${Math.round(REDIRECT_DELAY_MS.phoneDialogClose / 1000)};url=${closeTo}`} />
            </noscript>
          ) : null}
          <Link to={closeTo} replace preventScrollReset className={buttonClass("secondary", "md", "mt-5")}>
            Close
          </Link>
        </div>
      ) : null}

      {view.step === "error" ? (
        <div className="mt-6">
          <Alert tone="error">{view.error}</Alert>
          <div className="mt-5 flex flex-wrap justify-end gap-3">
            <Link to={closeTo} replace preventScrollReset className={buttonClass("secondary")}>
              Close
            </Link>
            {props.phoneNumber ? (
              <form method="post" action={ROUTE} onSubmit={onSend}>
                <input type="hidden" name="intent" value="send" />
                <button type="submit" className={buttonClass("primary")} disabled={busy !== null}>
                  {busy === "send" ? <Spinner className="h-4 w-4" label="Sending" /> : null}
                  {busy === "send" ? "Sending..." : "Try Again"}
                </button>
              </form>
            ) : null}
          </div>
        </div>
      ) : null}
    </UrlModal>
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
  view: Extract<View, { step: "verifying" }>;
  code: string;
  busy: "send" | "verify" | null;
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
      {view.error ? (
        <Alert tone="error" className="mt-4">
          {view.error}
        </Alert>
      ) : null}
      <form method="post" action={ROUTE} onSubmit={onVerify} className="mt-4">
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
      <form method="post" action={ROUTE} onSubmit={onSend} className="mt-3 text-center">
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
    <form method="post" action={ROUTE} onSubmit={open} className={className}>
      <input type="hidden" name="intent" value="send" />
      <button type="submit" className={buttonClass("secondary", "sm")}>
        {status === "pending" ? "Enter code" : "Verify phone"}
      </button>
    </form>
  );
}

/** Verified / Code sent / Not verified, for next to the number. */
