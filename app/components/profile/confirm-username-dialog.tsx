import { useRef } from "react";
import { USERNAME } from "~/lib/constants";
import { useModalDialog } from "../modal";
import { Button } from "../ui";

/**
 * Spec: the confirm-username dialog closes on Escape or a backdrop click. A modal <dialog> over the
 * Edit Profile dialog: the platform stacks them, so Escape and a press outside close only this one.
 */
export function ConfirmUsernameDialog({ from, to, onCancel, onConfirm }: { from: string | null; to: string; onCancel: () => void; onConfirm: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  useModalDialog(dialog, onCancel);
  return (
    <dialog
      ref={dialog}
      role="alertdialog"
      aria-labelledby="confirm-username-title"
      className="fixed inset-0 m-auto h-fit w-[calc(100%-2rem)] max-w-sm rounded-2xl bg-white p-6 text-inherit shadow-xl backdrop:bg-slate-900/40"
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
        <Button onClick={onConfirm} data-autofocus>
          Confirm
        </Button>
      </div>
    </dialog>
  );
}
