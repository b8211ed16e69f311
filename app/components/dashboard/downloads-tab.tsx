// The Downloads tab: the build recommended for this computer, every published build with its
// SHA-256, the system requirements, recent downloads with Re-download, and how to install.
import { type ReactNode, useEffect, useRef, useState } from "react";
import { useLocation, Link } from "react-router";
import { RedeemKeyHint } from "../early-access/redeem-form";
import {
  type DetectedDevice,
  type DownloadOption,
  findOption,
  optionById,
  optionsFor,
  PLATFORM_LABELS,
  type Platform,
  PLATFORMS,
} from "~/lib/downloads/options";
import type { DownloadHistoryItem, ReleaseView } from "~/lib/downloads/releases.server";
import { DOWNLOAD_MESSAGES } from "~/lib/downloads/messages";
import { DesktopOnlyNotice, type EmailLinkAnswer, useDetectedDevice } from "../desktop-only";
import { BuildFacts, Checksum, DownloadForm, RecommendedBadge, releaseFor, SystemRequirements, useDownloader } from "../download-dialog";
import { withParam } from "../modal";
import { Alert, buttonClass, Card, ChevronDownIcon, cx, LinkButton, Spinner } from "../ui";
import { ComputerRequirements, InstallationGuide } from "./downloads-guide";
import { TabIcon } from "./icons";
import { useFormat } from "~/components/format";

export type DownloadsTabData =
  | { subscribed: false; error: string | null }
  | {
      subscribed: true;
      error: string | null;
      versions: Platform | null;
      detected: DetectedDevice;
      email: string;
      releases: ReleaseView[];
      history: DownloadHistoryItem[];
    };

/**
 * The server tells the OS from the User-Agent; Chromium browsers also say whether a Mac is Apple
 * Silicon or Intel (the User-Agent of both says "Intel"), which refines the suggestion.
 */
function useDetectedOption(serverId: string | null): DownloadOption | null {
  const [id, setId] = useState(serverId);
  useEffect(() => {
    setId(serverId);
    const uaData = (
      navigator as Navigator & { userAgentData?: { getHighEntropyValues?: (hints: string[]) => Promise<{ platform?: string; architecture?: string }> } }
    ).userAgentData;
    if (!uaData?.getHighEntropyValues || !serverId?.startsWith("mac-")) return;
    let live = true;
    uaData
      .getHighEntropyValues(["architecture"])
      .then(({ platform, architecture }) => {
        if (!live || platform !== "macOS") return;
        if (architecture === "arm") setId("mac-apple-silicon");
        else if (architecture === "x86") setId("mac-intel");
      })
      .catch(() => {});
    return () => {
      live = false;
    };
  }, [serverId]);
  if (serverId === null) return null;
  return optionById(id ?? serverId) ?? optionById(serverId)!;
}

function SubmitButton({
  busy,
  disabled,
  children,
  variant = "primary",
  size = "md",
  className,
}: {
  busy: boolean;
  disabled?: boolean;
  children: ReactNode;
  variant?: "primary" | "secondary";
  size?: "sm" | "md" | "lg";
  className?: string;
}) {
  return (
    <button type="submit" disabled={busy || disabled} className={buttonClass(variant, size, className)}>
      {busy ? (
        <>
          <span aria-hidden="true">
            <Spinner className="h-4 w-4" />
          </span>
          {DOWNLOAD_MESSAGES.preparing}
        </>
      ) : (
        children
      )}
    </button>
  );
}

/** `mailed`: the answer to "E-mail me the download link" posted without JavaScript. */
export function DownloadsTab({ data, mailed }: { data: DownloadsTabData; mailed?: EmailLinkAnswer }) {
  if (!data.subscribed) return <SubscriptionRequired error={data.error} />;
  return <SubscriberDownloads data={data} mailed={mailed} />;
}

function Heading() {
  return (
    <div>
      <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">Download Modelify</h1>
      <p className="mt-1 text-sm text-slate-600">The desktop app for Windows, macOS and Linux.</p>
    </div>
  );
}

function SubscriptionRequired({ error }: { error: string | null }) {
  return (
    <>
      <Heading />
      {error ? (
        <Alert tone="error" className="mt-6">
          {error}
        </Alert>
      ) : null}
      <Card className="mt-8 flex flex-col items-center px-6 py-14 text-center">
        <span className="flex h-12 w-12 items-center justify-center rounded-full bg-brand-50 text-brand-600">
          <TabIcon name="downloads" className="h-6 w-6" />
        </span>
        <h2 className="mt-4 text-lg font-semibold text-slate-900">Subscription Required</h2>
        <p className="mt-2 max-w-md text-sm text-slate-600">
          Downloads of the desktop app are part of the Pro plan. Start your free trial to get Modelify for Windows, macOS and Linux.
        </p>
        <LinkButton to="/pricing" className="mt-6">
          Subscribe Now
        </LinkButton>
        <RedeemKeyHint />
      </Card>
    </>
  );
}

type Subscribed = Extract<DownloadsTabData, { subscribed: true }>;
type Downloader = ReturnType<typeof useDownloader>;
/** Each download button has its own key, so only the pressed one shows the spinner. */
type StartFor = (key: string) => (platform: string, arch: string) => void;

function SubscriberDownloads({ data, mailed }: { data: Subscribed; mailed?: EmailLinkAnswer }) {
  const download = useDownloader();
  const device = useDetectedDevice(data.detected);
  const detected = useDetectedOption(device.kind === "desktop" ? device.optionId : null);
  const alertRef = useRef<HTMLDivElement>(null);
  const start: StartFor = (key) => (platform, arch) => download.start(key, platform, arch);
  const error = download.error ?? (download.started ? null : data.error);
  const requirementsFor = data.versions ?? detected?.platform ?? null;
  // On a phone the answer shows beside its button; elsewhere (the form was posted from a phone,
  // this page is not one) at the top.
  const mailedHere = device.kind === "mobile" ? mailed : undefined;
  const mailedAbove = device.kind === "mobile" ? undefined : mailed;

  useEffect(() => {
    if (download.error || download.started) alertRef.current?.scrollIntoView({ block: "nearest", behavior: "smooth" });
  }, [download.error, download.started]);

  return (
    <>
      <Heading />

      <div ref={alertRef} aria-live="polite" className="mt-6 scroll-mt-24 space-y-3 empty:hidden">
        {error ? <Alert tone="error">{error}</Alert> : null}
        {download.started ? <Alert tone="success">Your download has started. Check your browser's downloads.</Alert> : null}
        {mailedAbove ? <Alert tone={mailedAbove.ok ? "success" : "error"}>{mailedAbove.message}</Alert> : null}
      </div>

      {detected ? (
        <RecommendedBuild data={data} detected={detected} download={download} start={start} />
      ) : (
        <OnPhone data={data} device={device as Extract<DetectedDevice, { kind: "mobile" }>} mailed={mailedHere} download={download} start={start} />
      )}

      <div className="mt-6 grid gap-6 lg:grid-cols-2">
        <RecentDownloads history={data.history} download={download} start={start} />
        <Card className="p-6">
          {requirementsFor ? (
            <>
              <h2 className="text-lg font-semibold text-slate-900">{PLATFORM_LABELS[requirementsFor]} system requirements</h2>
              <SystemRequirements platform={requirementsFor} plain className="mt-3" />
            </>
          ) : (
            <ComputerRequirements />
          )}
          <p className="mt-3 text-xs text-slate-500">Re-download fetches the newest build for that platform and architecture.</p>
        </Card>
      </div>

      <InstallationGuide onPhone={device.kind === "mobile"} />
    </>
  );
}

/** A phone or tablet: no build to recommend; the link by e-mail, and every build behind All Versions. */
function OnPhone({
  data,
  device,
  mailed,
  download,
  start,
}: {
  data: Subscribed;
  device: Extract<DetectedDevice, { kind: "mobile" }>;
  mailed?: EmailLinkAnswer;
  download: Downloader;
  start: StartFor;
}) {
  const { pathname, search } = useLocation();
  return (
    <Card className="mt-6 p-6 sm:p-8">
      <DesktopOnlyNotice device={device.device} email={data.email} submitted={mailed} />
      <Link
        to={withParam(pathname, search, "versions", data.versions ? null : "windows")}
        preventScrollReset
        aria-expanded={data.versions !== null}
        aria-controls="all-versions"
        className={buttonClass("ghost", "md", "mt-4 -ml-3")}
      >
        All Versions
        <ChevronDownIcon className={cx("h-4 w-4 transition-transform", data.versions && "rotate-180")} />
      </Link>
      {data.versions ? <AllVersions versions={data.versions} releases={data.releases} download={download} start={start} /> : null}
    </Card>
  );
}

/** The build for this computer, and behind All Versions (a URL parameter) every build by OS. */
function RecommendedBuild({ data, detected, download, start }: { data: Subscribed; detected: DownloadOption; download: Downloader; start: StartFor }) {
  const { pathname, search } = useLocation();
  const recommended = releaseFor(data.releases, detected);
  return (
    <Card className="mt-6 p-6 sm:p-8">
      <div className="flex flex-col gap-6 md:flex-row md:items-start md:justify-between">
        <div className="min-w-0">
          <p className="text-sm font-medium text-brand-700">Recommended for this computer</p>
          <h2 className="mt-1 text-xl font-semibold text-slate-900">Modelify for {PLATFORM_LABELS[detected.platform]}</h2>
          <p className="mt-1 text-sm text-slate-600" data-testid="detected-os">
            We detected {PLATFORM_LABELS[detected.platform]}. Suggested build: {detected.name} ({detected.description}).
          </p>
          <BuildFacts release={recommended} className="mt-2 block" />
          {recommended ? <Checksum release={recommended} className="mt-1 max-w-xl" /> : null}
        </div>
        <div className="flex shrink-0 flex-col gap-3 sm:flex-row md:flex-col">
          <DownloadForm platform={detected.platform} arch={detected.arch} onStart={start("now")}>
            <SubmitButton busy={download.busy === "now"} disabled={!recommended || download.busy !== null} size="lg" className="w-full">
              <TabIcon name="downloads" className="h-5 w-5" />
              Download Now
            </SubmitButton>
          </DownloadForm>
          <Link
            to={data.versions ? withParam(pathname, search, "versions", null) : withParam(pathname, search, "versions", detected.platform)}
            preventScrollReset
            aria-expanded={data.versions !== null}
            aria-controls="all-versions"
            className={buttonClass("secondary", "lg")}
          >
            All Versions
            <ChevronDownIcon className={cx("h-4 w-4 transition-transform", data.versions && "rotate-180")} />
          </Link>
        </div>
      </div>

      {data.versions ? <AllVersions versions={data.versions} releases={data.releases} download={download} start={start} /> : null}
    </Card>
  );
}

function AllVersions({ versions, releases, download, start }: { versions: Platform; releases: ReleaseView[]; download: Downloader; start: StartFor }) {
  const { pathname, search } = useLocation();
  return (
    <div id="all-versions" className="mt-8 border-t border-slate-100 pt-6">
      <nav aria-label="Operating systems" className="flex gap-1 border-b border-slate-200">
        {PLATFORMS.map((p) => (
          <Link
            key={p}
            to={withParam(pathname, search, "versions", p)}
            preventScrollReset
            replace
            aria-current={versions === p ? "page" : undefined}
            className={cx(
              "-mb-px border-b-2 px-4 py-2.5 text-sm font-medium",
              versions === p ? "border-brand-600 text-brand-700" : "border-transparent text-slate-600 hover:text-slate-900",
            )}
          >
            {PLATFORM_LABELS[p]}
          </Link>
        ))}
      </nav>
      <ul className="mt-4 divide-y divide-slate-100">
        {optionsFor(versions).map((option) => {
          const release = releaseFor(releases, option);
          const key = `version-${option.id}`;
          return (
            <li key={option.id} className="flex flex-col gap-3 py-4 sm:flex-row sm:items-center sm:justify-between" data-testid={`build-${option.id}`}>
              <div className="min-w-0">
                <p className="flex flex-wrap items-center gap-2">
                  <span className="font-semibold text-slate-900">{option.name}</span>
                  {option.recommended ? <RecommendedBadge /> : null}
                </p>
                <p className="text-sm text-slate-600">{option.description}</p>
                <BuildFacts release={release} className="mt-1 block" />
                {release ? <Checksum release={release} className="mt-1" /> : null}
              </div>
              <DownloadForm platform={option.platform} arch={option.arch} onStart={start(key)} className="shrink-0">
                <SubmitButton busy={download.busy === key} disabled={!release || download.busy !== null} variant="secondary" className="w-full sm:w-auto">
                  {release ? "Download" : "Not available"}
                </SubmitButton>
              </DownloadForm>
            </li>
          );
        })}
      </ul>
    </div>
  );
}

function RecentDownloads({ history, download, start }: { history: DownloadHistoryItem[]; download: Downloader; start: StartFor }) {
  const f = useFormat();
  return (
    <Card className="p-6">
      <h2 className="text-lg font-semibold text-slate-900">Recent Downloads</h2>
      {history.length === 0 ? (
        <p className="mt-3 text-sm text-slate-600">No downloads yet. Your downloads will appear here.</p>
      ) : (
        <ul className="mt-3 divide-y divide-slate-100" data-testid="recent-downloads">
          {history.map((item) => {
            const option = findOption(item.platform, item.architecture);
            const key = `history-${item.id}`;
            return (
              <li key={item.id} className="flex items-center justify-between gap-4 py-3">
                <div className="min-w-0">
                  <p className="text-sm font-medium text-slate-900">{option?.name ?? `${item.platform} ${item.architecture}`}</p>
                  <p className="text-xs text-slate-500">
                    {item.version ? `v${item.version} · ` : null}
                    {f.dateTime(item.downloadedAt)}
                  </p>
                </div>
                <DownloadForm platform={item.platform} arch={item.architecture} onStart={start(key)} className="shrink-0">
                  <SubmitButton busy={download.busy === key} disabled={download.busy !== null} variant="secondary" size="sm">
                    Re-download
                  </SubmitButton>
                </DownloadForm>
              </li>
            );
          })}
        </ul>
      )}
    </Card>
  );
}
