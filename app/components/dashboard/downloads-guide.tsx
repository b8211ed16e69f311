// The Downloads tab's guides: how to install, and on a phone which computers Modelify runs on.
import type { ReactNode } from "react";
import { PLATFORM_LABELS, PLATFORMS, SYSTEM_REQUIREMENTS } from "~/lib/downloads/options";
import { SUPPORT_EMAIL } from "../download-dialog";
import { Card } from "../ui";

/** On a phone: which computers it runs on, without picking one. */
export function ComputerRequirements() {
  const [first, ...others] = PLATFORMS.map((p) => SYSTEM_REQUIREMENTS[p]);
  // What every platform asks for alike (memory, disk, network) once; each system's own line apart.
  const shared = (first ?? []).filter((line) => others.every((list) => list.includes(line)));
  return (
    <>
      <h2 className="text-lg font-semibold text-slate-900">Computer requirements</h2>
      <ul className="mt-3 space-y-1.5 text-sm text-slate-600">
        {PLATFORMS.map((p) => (
          <li key={p}>
            <span className="font-medium text-slate-800">{PLATFORM_LABELS[p]}:</span>{" "}
            {SYSTEM_REQUIREMENTS[p].filter((line) => !shared.includes(line)).join(", ")}
          </li>
        ))}
        {shared.length ? <li>All of them: {shared.join(", ")}</li> : null}
      </ul>
    </>
  );
}

export function InstallationGuide({ onPhone }: { onPhone: boolean }) {
  return (
    <Card className="mt-6 scroll-mt-24 p-6 sm:p-8" id="installation-guide">
      <h2 className="text-lg font-semibold text-slate-900">Installation guide</h2>
      <ol className="mt-4 grid gap-6 md:grid-cols-3">
        <Step n={1} title="Download">
          {onPhone
            ? "On your computer, open the link we e-mail you (or this page) and use Download Now there, or pick a build under All Versions."
            : "Use Download Now for this computer, or pick a build under All Versions."}{" "}
          Compare the file's SHA-256 with the one shown here if you want to be sure.
        </Step>
        <Step n={2} title="Install">
          Windows: run the .msi installer. macOS: open the .dmg and drag Modelify to Applications. Linux: make the AppImage executable (
          <code className="font-mono text-xs">chmod +x</code>) and run it.
        </Step>
        <Step n={3} title="Setup">
          Open Modelify, sign in with this account, and add your provider API keys under Settings, then API Keys.
        </Step>
      </ol>
      <p className="mt-6 text-sm text-slate-600">
        Stuck? Write to{" "}
        <a href={`mailto:${SUPPORT_EMAIL}`} className="font-medium text-brand-700 underline-offset-2 hover:underline">
          {SUPPORT_EMAIL}
        </a>
        .
      </p>
    </Card>
  );
}

function Step({ n, title, children }: { n: number; title: string; children: ReactNode }) {
  return (
    <li className="flex gap-4">
      <span className="flex h-9 w-9 shrink-0 items-center justify-center rounded-full bg-brand-50 text-sm font-bold text-brand-700" aria-hidden="true">
        {n}
      </span>
      <div>
        <h3 className="font-semibold text-slate-900">
          <span className="sr-only">Step {n}: </span>
          {title}
        </h3>
        <p className="mt-1 text-sm leading-6 text-slate-600">{children}</p>
      </div>
    </li>
  );
}
