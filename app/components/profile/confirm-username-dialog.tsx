import { useEffect, useRef } from "react";
import { USERNAME } from "~/lib/constants";
import { Button } from "../ui";

/** Spec: the confirm-username dialog closes on Escape or a backdrop click. */
export function ConfirmUsernameDialog({ from, to, onCancel, onConfirm }: { from: string | null; to: string; onCancel: () => void; onConfirm: () => void }) {
  const confirmRef = useRef<HTMLButtonElement>(null);
  useEffect(() => confirmRef.current?.focus(), []);
  // Caught first (capture on window) and stopped, so Escape closes this dialog and not the Edit
  // Profile dialog beneath, whose own listener is on window too.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      event.stopPropagation();
      onCancel();
    };
    window.addEventListener("keydown", onKey, true);
    return () => window.removeEventListener("keydown", onKey, true);
  }, [onCancel]);
  return (
    <div className="fixed inset-0 z-[60] flex items-center justify-center p-4">
      <button type="button" aria-label="Cancel" tabIndex={-1} className="absolute inset-0 cursor-default bg-slate-900/40" onClick={onCancel} />
      <div
        role="alertdialog"
        aria-modal="true"
        aria-labelledby="confirm-username-title"
        className="relative w-full max-w-sm rounded-2xl bg-white p-6 shadow-xl"
      >
        <h3 id="confirm-username-title" className="text-lg font-semibold text-slate-900">
          Confirm Username Change
        </h3>
        <p className="mt-2 text-sm text-slate-600">
          {from ? (
            <>
              Change your username from <strong className="text-slate-900">@{from}</strong> to <strong className="text-slate-900">@{to}</strong>?
            </>
          ) : (
            <>
              Set your username to <strong className="text-slate-900">@{to}</strong>?
            </>
          )}{" "}
          You can change it again after {USERNAME.changeIntervalDays} days.
        </p>
        <div className="mt-6 flex justify-end gap-3">
          <Button variant="secondary" onClick={onCancel}>
            Cancel
          </Button>
          <Button ref={confirmRef} onClick={onConfirm}>
            Confirm
          </Button>
        </div>
      </div>
    </div>
  );
}
