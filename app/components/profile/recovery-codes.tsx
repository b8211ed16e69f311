// The recovery codes, shown once after two-factor is turned on or new codes are made, with Copy
// and Download (issue 46). Both run in the page from the codes it shows: nothing is fetched, and the
// file is made in the browser. They need JavaScript, so they appear once the page has hydrated;
// without it the codes are plain text to select and copy.
import { useEffect, useState } from "react";
import { MODAL, TWO_FACTOR } from "~/lib/constants";
import { useFormat } from "../format";
import { Alert, Button, CheckIcon, LinkButton, useHydrated } from "../ui";

/** The file's name and its words: what the codes are for and how each one works. */
const RECOVERY_FILE_NAME = "modelify-recovery-codes.txt";
function fileText(codes: string[], madeOn: string): string {
  return [
    "Modelify recovery codes",
    `Made on ${madeOn}. Each code signs you in once, in place of a code from your authenticator app.`,
    "Keep them somewhere safe, such as your password manager. Making new codes ends these.",
    "",
    ...codes,
    "",
  ].join("\n");
}

type Copy = "idle" | "copied" | "failed";

export function RecoveryCodes({ codes, replaced }: { codes: string[]; replaced: boolean }) {
  const hydrated = useHydrated();
  const f = useFormat();
  const [copy, setCopy] = useState<Copy>("idle");
  useEffect(() => {
    if (copy !== "copied") return;
    const timer = window.setTimeout(() => setCopy("idle"), MODAL.copyFeedbackMs);
    return () => window.clearTimeout(timer);
  }, [copy]);

  const copyCodes = () =>
    navigator.clipboard.writeText(codes.join("\n")).then(
      () => setCopy("copied"),
      () => setCopy("failed"),
    );
  const downloadCodes = () => {
    const madeOn = f.date(Date.now());
    const url = URL.createObjectURL(new Blob([fileText(codes, madeOn)], { type: "text/plain;charset=utf-8" }));
    const link = document.createElement("a");
    link.href = url;
    link.download = RECOVERY_FILE_NAME;
    document.body.appendChild(link);
    link.click();
    link.remove();
    // After the click has handed the file to the browser's download.
    window.setTimeout(() => URL.revokeObjectURL(url), 0);
  };

  return (
    <div className="mt-2 space-y-4">
      <Alert tone="success">
        {replaced
          ? "Your new recovery codes are ready: the old ones no longer work. We e-mailed you about the change."
          : "Two-factor authentication is on. We e-mailed you about the change."}
      </Alert>
      <p className="text-sm text-slate-600">
        Save these {TWO_FACTOR.recoveryCodes} recovery codes somewhere safe, such as your password manager. Each one signs you in once if you lose your phone.
        This is the only time they are shown.
      </p>
      <ul
        className="grid grid-cols-1 gap-2 rounded-lg bg-slate-50 p-4 font-mono text-sm text-slate-900 sm:grid-cols-2"
        aria-label="Recovery codes"
        data-testid="recovery-codes"
      >
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      {hydrated ? (
        <div className="flex flex-wrap items-center gap-3">
          <Button type="button" variant="secondary" onClick={copyCodes}>
            Copy Codes
          </Button>
          <Button type="button" variant="secondary" onClick={downloadCodes}>
            Download .txt
          </Button>
          <p className="text-sm" role="status">
            {copy === "copied" ? (
              <span className="inline-flex items-center gap-1.5 font-medium text-emerald-700">
                <CheckIcon className="h-4 w-4" bold />
                Copied to the clipboard
              </span>
            ) : null}
            {copy === "failed" ? <span className="text-red-700">Could not copy: select the codes above and copy them yourself.</span> : null}
          </p>
        </div>
      ) : null}
      <LinkButton to="/dashboard/profile#two-factor-title" className="w-full">
        I Saved Them: Back to Profile
      </LinkButton>
    </div>
  );
}
