// The phone dialog's state (phone-dialog.tsx): its steps, the two requests to the phone route
// (send a code, check a code) as JSON, and closing the dialog after a success.
import { type ChangeEvent, type FormEvent, useCallback, useEffect, useRef, useState } from "react";
import { useNavigate } from "react-router";
import { PHONE_CODE, REDIRECT_DELAY_MS } from "~/lib/constants";
import { needsNewCode, type PhoneFailure, parsePhoneFailure, parseWaitMinutes, phoneFailureMessage } from "~/lib/phone/outcome";
import { PHONE_MESSAGES } from "~/lib/profile/messages";
import type { PhoneStatus } from "~/lib/profile/view";

export const PHONE_ROUTE = "/dashboard/profile/phone";

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

export type View =
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
    const response = await fetch(PHONE_ROUTE, {
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

export type Busy = "send" | "verify" | null;

/**
 * The dialog's steps and its two requests: sending a code (at once on opening, unless the page
 * came with one live) and checking the code typed in.
 */
export function usePhoneVerification(props: PhoneDialogProps, params: URLSearchParams) {
  const [view, setView] = useState<View>(() => initialView(props, params));
  const [busy, setBusy] = useState<Busy>(null);
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

  return { view, busy, code, codeInput, onSend, onVerify, onCodeChange };
}

/**
 * A number verified while the dialog was open (not one already verified before): after
 * REDIRECT_DELAY_MS.phoneDialogClose the profile hears of it and the dialog closes.
 */
export function useCloseAfterSuccess(view: View, params: URLSearchParams, { status, closeTo, onVerified }: PhoneDialogProps) {
  const navigate = useNavigate();
  const success = view.step === "success" ? view.phone : null;
  const justVerified = success !== null && (params.get("phoneResult") === "verified" || status !== "verified");
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
  return justVerified;
}
