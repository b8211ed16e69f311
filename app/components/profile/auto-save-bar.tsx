import { PROFILE } from "~/lib/constants";
import { Button } from "../ui";

/** Spec: an unsaved change shows a 10 s auto-save countdown with a progress bar and Save Now. */
export function AutoSaveBar({ elapsed, busy, onSaveNow }: { elapsed: number; busy: boolean; onSaveNow: () => void }) {
  const secondsLeft = Math.ceil((PROFILE.autoSaveMs - elapsed) / 1000);
  return (
    <div className="sticky top-0 z-10 mt-4 rounded-lg border border-amber-200 bg-amber-50 px-4 py-3 shadow-sm" data-testid="autosave-bar">
      <div className="flex items-center justify-between gap-3">
        <p className="text-sm font-medium text-amber-900">{busy ? "Saving..." : `Unsaved changes · auto-saving in ${secondsLeft} s`}</p>
        <Button size="sm" variant="secondary" onClick={onSaveNow} disabled={busy}>
          Save Now
        </Button>
      </div>
      <div
        className="mt-2 h-1.5 overflow-hidden rounded-full bg-amber-100"
        role="progressbar"
        aria-label="Auto-save countdown"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Math.round((elapsed / PROFILE.autoSaveMs) * 100)}
      >
        <div className="h-full rounded-full bg-amber-500 transition-[width] duration-200" style={{ width: `${(elapsed / PROFILE.autoSaveMs) * 100}%` }} />
      </div>
    </div>
  );
}
