// The download dialog shared by the landing page, plus the pieces the Downloads tab and the
// post-payment dialog reuse: the download call, a build's facts (version, size, SHA-256) and the
// platform's system requirements. Every download button is a form posting platform and arch to
// /downloads/prepare: without JavaScript the server answers with the file itself; with it the
// call runs in the background and its errors show in place.
import { type FormEvent, type ReactNode, useCallback, useEffect, useRef, useState } from "react";
import { useNavigate, useRevalidator, Link } from "react-router";
import { NETWORK_FAILURE, readDownloadAnswer } from "~/lib/downloads/answer";
import { DOWNLOAD_MESSAGES } from "~/lib/downloads/messages";
import { type DownloadOption, optionsFor, PLATFORM_LABELS, type Platform, SYSTEM_REQUIREMENTS } from "~/lib/downloads/options";
import type { ReleaseView } from "~/lib/downloads/releases.server";
import { DOWNLOAD } from "~/lib/constants";
import { useFormat } from "./format";
import { UrlModal } from "./modal";
import { Alert, buttonClass, CheckIcon, cx, Spinner, useHydrated } from "./ui";

export const SUPPORT_EMAIL = "support@modelify.dev";
/** The installation guide on the Downloads tab (download, install, set up API keys). */
const SETUP_GUIDE_HREF = "/dashboard/downloads#installation-guide";

/** Starts the browser's download of a signed link without leaving the page. */
function triggerFile(url: string) {
  const a = document.createElement("a");
  a.href = url;
  a.download = "";
  a.rel = "noopener";
  document.body.appendChild(a);
  a.click();
  a.remove();
}

export type DownloadState = { busy: string | null; error: string | null; started: string | null };

/**
 * The download call from the page: POST /downloads/prepare, then the file. `key` names the button
 * that asked, so only that one shows 'Preparing Download...'. Successful downloads reload the
 * page's data (the history) and call onStarted.
 */
export function useDownloader(onStarted?: () => void) {
  const [state, setState] = useState<DownloadState>({ busy: null, error: null, started: null });
  const revalidator = useRevalidator();
  const onStartedRef = useRef(onStarted);
  onStartedRef.current = onStarted;

  const start = useCallback(
    async (key: string, platform: string, arch: string) => {
      setState({ busy: key, error: null, started: null });
      let answer = NETWORK_FAILURE;
      try {
        const response = await fetch("/downloads/prepare", {
          method: "POST",
          body: new URLSearchParams({ platform, arch }),
          headers: { Accept: "application/json" },
          credentials: "same-origin",
        });
        answer = await readDownloadAnswer(response);
      } catch {
        answer = NETWORK_FAILURE;
      }
      if (!answer.ok) {
        setState({ busy: null, error: answer.error, started: null });
        return;
      }
      triggerFile(answer.url);
      setState({ busy: null, error: null, started: key });
      revalidator.revalidate();
      onStartedRef.current?.();
    },
    [revalidator],
  );

  const reset = useCallback(() => setState({ busy: null, error: null, started: null }), []);
  return { ...state, start, reset };
}

/** Closes a dialog DOWNLOAD.dialogCloseMs after its download started. */
export function useCloseAfterStart(started: string | null, close: () => void) {
  const closeRef = useRef(close);
  closeRef.current = close;
  useEffect(() => {
    if (!started) return;
    const timer = setTimeout(() => closeRef.current(), DOWNLOAD.dialogCloseMs);
    return () => clearTimeout(timer);
  }, [started]);
}

/**
 * A form that downloads one build. Without JavaScript it posts to /downloads/prepare and the
 * server sends the file (or the Downloads tab with the reason); with it, onStart runs instead.
 */
export function DownloadForm({
  platform,
  arch,
  onStart,
  className,
  children,
}: {
  platform: string;
  arch?: string;
  onStart: (platform: string, arch: string) => void;
  className?: string;
  children: ReactNode;
}) {
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const chosen = String(data.get("arch") ?? "");
    if (chosen) onStart(platform, chosen);
  };
  return (
    <form method="post" action="/downloads/prepare" onSubmit={submit} className={className}>
      <input type="hidden" name="platform" value={platform} />
      {arch ? <input type="hidden" name="arch" value={arch} /> : null}
      {children}
    </form>
  );
}

export function releaseFor(releases: readonly ReleaseView[], option: DownloadOption): ReleaseView | undefined {
  return releases.find((r) => r.optionId === option.id);
}

/** The build to suggest for a platform: its recommended option if published, else any published one. */
export function suggestedBuild(releases: readonly ReleaseView[], platform: Platform): { option: DownloadOption; release: ReleaseView } | null {
  const options = [...optionsFor(platform)].sort((a, b) => Number(b.recommended) - Number(a.recommended));
  for (const option of options) {
    const release = releaseFor(releases, option);
    if (release) return { option, release };
  }
  return null;
}

/** "v1.4.0 · 142 MB", or that the build is not published. */
export function BuildFacts({ release, className }: { release: ReleaseView | undefined; className?: string }) {
  const f = useFormat();
  if (!release) return <span className={cx("text-sm text-slate-500", className)}>Not available yet</span>;
  return (
    <span className={cx("text-sm text-slate-600", className)}>
      <span className="font-medium text-slate-800">v{release.version}</span>
      <span aria-hidden="true"> · </span>
      <span className="sr-only">, </span>
      <span title={`${f.integer(release.byteSize)} bytes`}>{f.bytes(release.byteSize)}</span>
      {release.demo ? <span className="ml-2 rounded bg-amber-50 px-1.5 py-0.5 text-xs font-medium text-amber-800">Demo build</span> : null}
    </span>
  );
}

/** The build's SHA-256 in full, selectable, so users can check the file they got. */
export function Checksum({ release, className }: { release: ReleaseView; className?: string }) {
  return (
    <p className={cx("text-xs leading-5 text-slate-500", className)}>
      <span className="font-medium text-slate-600">SHA-256 </span>
      <code className="break-all font-mono text-slate-700 select-all" data-testid="sha256">
        {release.sha256}
      </code>
    </p>
  );
}

/** The platform's requirements: a shaded box in dialogs, or a plain list under a card's own heading. */
export function SystemRequirements({ platform, className, plain }: { platform: Platform; className?: string; plain?: boolean }) {
  return (
    <div className={cx(!plain && "rounded-xl bg-slate-50 p-4", className)}>
      {plain ? null : <h3 className="text-sm font-semibold text-slate-900">{PLATFORM_LABELS[platform]} system requirements</h3>}
      <ul className={cx("space-y-1.5 text-sm text-slate-600", !plain && "mt-2")}>
        {SYSTEM_REQUIREMENTS[platform].map((r) => (
          <li key={r} className="flex gap-2">
            <CheckIcon className="mt-0.5 h-4 w-4 shrink-0 text-brand-600" />
            {r}
          </li>
        ))}
      </ul>
    </div>
  );
}

export function RecommendedBadge() {
  return <span className="rounded-full bg-brand-50 px-2 py-0.5 text-xs font-semibold text-brand-700">Recommended</span>;
}

export function HelpLinks({ className }: { className?: string }) {
  return (
    <p className={cx("text-sm text-slate-600", className)}>
      Need help?{" "}
      <Link to={SETUP_GUIDE_HREF} className="font-medium text-brand-700 underline-offset-2 hover:underline">
        Setup guide
      </Link>{" "}
      or{" "}
      <a href={`mailto:${SUPPORT_EMAIL}`} className="font-medium text-brand-700 underline-offset-2 hover:underline">
        contact support
      </a>
      .
    </p>
  );
}

/** One build to choose in the dialog: a radio card, dashed and disabled while it is not published. */
function VersionChoice({
  option,
  release,
  autofocus,
  disabled,
  onChoose,
}: {
  option: DownloadOption;
  release: ReleaseView | undefined;
  autofocus: boolean;
  disabled: boolean;
  onChoose: () => void;
}) {
  const id = `download-${option.id}`;
  return (
    <label
      htmlFor={id}
      className={cx(
        "flex gap-3 rounded-xl border p-4 transition-colors",
        release
          ? "cursor-pointer border-slate-200 hover:border-brand-300 has-[input:checked]:border-brand-600 has-[input:checked]:bg-brand-50/50 has-[input:focus-visible]:outline-2 has-[input:focus-visible]:outline-offset-2 has-[input:focus-visible]:outline-brand-600"
          : "cursor-not-allowed border-dashed border-slate-200 bg-slate-50",
      )}
    >
      <input
        id={id}
        type="radio"
        name="arch"
        value={option.arch}
        required
        data-autofocus={autofocus ? "" : undefined}
        disabled={!release || disabled}
        onChange={onChoose}
        className="mt-1 h-4 w-4 shrink-0 accent-brand-600 focus-visible:outline-none"
      />
      <span className="min-w-0 flex-1">
        <span className="flex flex-wrap items-center gap-2">
          <span className="font-semibold text-slate-900">{option.name}</span>
          {option.recommended ? <RecommendedBadge /> : null}
        </span>
        <span className="mt-0.5 block text-sm text-slate-600">{option.description}</span>
        <BuildFacts release={release} className="mt-1 block" />
        {release ? <Checksum release={release} className="mt-1" /> : null}
      </span>
    </label>
  );
}

/**
 * The dialog's submit label. Before hydration no state knows the choice, so CSS reads the
 * checked radio instead (the form carries `group`).
 */
function DownloadButtonLabel({ busy, hydrated, chosen }: { busy: boolean; hydrated: boolean; chosen: DownloadOption | undefined }) {
  if (busy) {
    return (
      <>
        <span aria-hidden="true">
          <Spinner className="h-5 w-5" />
        </span>
        {DOWNLOAD_MESSAGES.preparing}
      </>
    );
  }
  if (hydrated) return chosen ? `Download ${chosen.name}` : DOWNLOAD_MESSAGES.selectVersion;
  return (
    <>
      <span className="group-has-[input:checked]:hidden">{DOWNLOAD_MESSAGES.selectVersion}</span>
      <span className="hidden group-has-[input:checked]:inline">Download</span>
    </>
  );
}

/** The landing page's dialog: requirements, a choice among the platform's builds, and the download. */
export function DownloadDialog({ platform, releases, closeTo }: { platform: Platform; releases: readonly ReleaseView[]; closeTo: string }) {
  const navigate = useNavigate();
  const hydrated = useHydrated();
  const [selected, setSelected] = useState<string | null>(null);
  const download = useDownloader();
  useCloseAfterStart(download.started, () => navigate(closeTo, { replace: true, preventScrollReset: true }));
  const options = optionsFor(platform);
  const chosen = options.find((o) => o.arch === selected);
  const firstPublished = options.find((o) => releaseFor(releases, o));
  const busy = download.busy !== null;

  return (
    <UrlModal closeTo={closeTo} labelledBy="download-title" wide>
      <h2 id="download-title" className="pr-8 text-xl font-semibold text-slate-900">
        Download Modelify for {PLATFORM_LABELS[platform]}
      </h2>
      <p className="mt-1 text-sm text-slate-600">Choose the version for your computer. Each file's SHA-256 is shown so you can verify it.</p>

      <DownloadForm platform={platform} onStart={(p, a) => download.start("dialog", p, a)} className="group mt-6">
        <fieldset>
          <legend className="text-sm font-semibold text-slate-900">Version</legend>
          <div className="mt-3 space-y-3">
            {options.map((option) => (
              <VersionChoice
                key={option.id}
                option={option}
                release={releaseFor(releases, option)}
                autofocus={option === firstPublished}
                disabled={busy}
                onChoose={() => {
                  setSelected(option.arch);
                  download.reset();
                }}
              />
            ))}
          </div>
        </fieldset>

        <SystemRequirements platform={platform} className="mt-5" />

        <div aria-live="polite" className="mt-5 empty:hidden">
          {download.error ? <Alert tone="error">{download.error}</Alert> : null}
          {download.started ? <Alert tone="success">Your download has started.</Alert> : null}
        </div>

        <button type="submit" disabled={busy || (hydrated && !chosen)} className={buttonClass("primary", "lg", "mt-5 w-full")}>
          <DownloadButtonLabel busy={busy} hydrated={hydrated} chosen={chosen} />
        </button>
      </DownloadForm>
      <HelpLinks className="mt-4 text-center" />
    </UrlModal>
  );
}
