// The Edit Profile dialog's auto-save (ADR 0011): an unsaved change starts a 10 s
// countdown that ends in a save, the page also saves when the tab becomes hidden, and leaving
// with unsaved changes asks the browser's confirmation.
import { useCallback, useEffect, useRef, useState } from "react";
import { PROFILE } from "~/lib/constants";

export function useAutoSave({
  dirtySince,
  unsaved,
  busy,
  pausedAfterError,
  submit,
}: {
  /** When the countdown started, or null when nothing auto-saved is unsaved. */
  dirtySince: number | null;
  /** Anything unsaved, including what only the Save button saves. */
  unsaved: boolean;
  busy: boolean;
  /** A refused save stops the countdown until the next edit (the same form would fail again). */
  pausedAfterError: boolean;
  submit: (intent: "autosave") => void;
}) {
  const [now, setNow] = useState(() => Date.now());
  // The countdown's clock.
  useEffect(() => {
    if (dirtySince === null) return;
    const timer = setInterval(() => setNow(Date.now()), 200);
    return () => clearInterval(timer);
  }, [dirtySince]);

  const elapsed = dirtySince === null ? 0 : Math.min(now - dirtySince, PROFILE.autoSaveMs);
  const countdownDue = dirtySince !== null && elapsed >= PROFILE.autoSaveMs;
  // The countdown an auto-save was sent for. When that save ends, the effect below sees "not
  // busy" before the countdown is cleared; without this it would send the same save again.
  const savedCountdown = useRef<number | null>(null);
  const autosave = useCallback(() => {
    savedCountdown.current = dirtySince;
    submit("autosave");
  }, [dirtySince, submit]);
  useEffect(() => {
    if (countdownDue && !busy && !pausedAfterError && savedCountdown.current !== dirtySince) autosave();
  }, [countdownDue, busy, pausedAfterError, dirtySince, autosave]);

  useEffect(() => {
    const onVisibility = () => {
      if (document.visibilityState === "hidden" && dirtySince !== null && !busy) autosave();
    };
    document.addEventListener("visibilitychange", onVisibility);
    return () => document.removeEventListener("visibilitychange", onVisibility);
  }, [dirtySince, busy, autosave]);

  useEffect(() => {
    if (!unsaved) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = "";
    };
    window.addEventListener("beforeunload", onBeforeUnload);
    return () => window.removeEventListener("beforeunload", onBeforeUnload);
  }, [unsaved]);

  /** Milliseconds of the countdown gone (the progress bar), and Save Now. */
  return { elapsed, autosave };
}
