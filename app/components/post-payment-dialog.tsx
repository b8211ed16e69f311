// The dialog that greets a new subscriber on /auth/success: what the checkout did (a trial charged
// nothing), the build for their computer, one button to get it, and what to do next. It closes a
// second after the download starts. On a phone or tablet it offers the link by e-mail instead.
import { useEffect, useState } from "react";
import { useNavigate, Link } from "react-router";
import type { CheckoutOutcome } from "~/lib/billing/billing.server";
import { DOWNLOAD } from "~/lib/constants";
import { DOWNLOAD_MESSAGES } from "~/lib/downloads/messages";
import { type DetectedDevice, type DownloadOption, PLATFORM_LABELS } from "~/lib/downloads/options";
import type { ReleaseView } from "~/lib/downloads/releases.server";
import { DesktopOnlyNotice, useDetectedDevice } from "./desktop-only";
import { Checksum, DownloadForm, HelpLinks, useCloseAfterStart, useDownloader } from "./download-dialog";
import { UrlModal } from "./modal";
import { Alert, buttonClass, CheckIcon, Spinner } from "./ui";
import { useFormat } from "~/components/format";

const architectureLabel: Record<string, string> = {
  x64: "64-bit (x64)",
  x86: "32-bit (x86)",
  intel: "Intel",
  "apple-silicon": "Apple Silicon",
  arm64: "ARM 64-bit",
};

export function PostPaymentDialog({
  outcome,
  detected,
  option,
  release,
  email,
  closeTo,
}: {
  outcome: CheckoutOutcome;
  detected: DetectedDevice;
  option: DownloadOption | null;
  release: ReleaseView | undefined;
  email: string;
  closeTo: string;
}) {
  const f = useFormat();
  const [badge, setBadge] = useState(true);
  useEffect(() => {
    const timer = setTimeout(() => setBadge(false), DOWNLOAD.paymentBadgeMs);
    return () => clearTimeout(timer);
  }, []);
  const device = useDetectedDevice(detected);

  return (
    <UrlModal closeTo={closeTo} labelledBy="post-payment-title">
      <div className="text-center">
        <div className="flex h-8 items-center justify-center">
          {badge ? (
            <span role="status" className="inline-flex items-center gap-1.5 rounded-full bg-emerald-50 px-3 py-1 text-sm font-semibold text-emerald-700">
              <CheckIcon className="h-4 w-4" bold />
              {outcome.kind === "trial" ? "Free trial started" : "Payment Successful!"}
            </span>
          ) : null}
        </div>
        {outcome.kind === "trial" ? (
          <p className="mt-2 text-sm text-slate-600" data-testid="post-payment-charge">
            Nothing was charged today. First charge: {f.usd(outcome.firstCharge.amountUsd)} USD on {f.date(outcome.firstCharge.date)}.
          </p>
        ) : null}
        <h2 id="post-payment-title" className="mt-3 text-xl font-semibold text-slate-900">
          Download Modelify
        </h2>
        {device.kind === "desktop" && option ? (
          <p className="mt-1 text-sm text-slate-600" data-testid="post-payment-os">
            Detected OS: <span className="font-semibold text-slate-900">{PLATFORM_LABELS[option.platform]}</span>
          </p>
        ) : null}
      </div>

      {device.kind === "desktop" && option ? (
        <DesktopDownload option={option} release={release} closeTo={closeTo} />
      ) : (
        <DesktopOnlyNotice device={device.kind === "mobile" ? device.device : "other"} email={email} headingLevel="h3" compact className="mt-5 text-left" />
      )}

      <h3 className="mt-6 text-sm font-semibold text-slate-900">Next steps</h3>
      <ol className="mt-2 list-decimal space-y-1.5 pl-5 text-sm text-slate-700">
        <li>{device.kind === "mobile" ? "On your computer, open the e-mailed link and install Modelify." : "Install Modelify from the downloaded file."}</li>
        <li>Set up your API keys under Settings, then API Keys.</li>
        <li>Build with agents: pick one of 120+ agents or any model.</li>
      </ol>
      <HelpLinks className="mt-5 text-center" />
    </UrlModal>
  );
}

/** The build for this computer and the button that gets it. */
function DesktopDownload({ option, release, closeTo }: { option: DownloadOption; release: ReleaseView | undefined; closeTo: string }) {
  const f = useFormat();
  const navigate = useNavigate();
  const download = useDownloader();
  useCloseAfterStart(download.started, () => navigate(closeTo, { replace: true, preventScrollReset: true }));
  const busy = download.busy !== null;
  const os = PLATFORM_LABELS[option.platform];
  return (
    <>
      <div className="mt-5 rounded-xl border border-slate-200 p-4">
        <p className="font-semibold text-slate-900">Modelify for {os}</p>
        {release ? (
          <>
            <p className="mt-0.5 text-sm text-slate-600" data-testid="post-payment-build">
              {architectureLabel[option.arch] ?? option.arch} · {f.bytes(release.byteSize)} · v{release.version}
            </p>
            <Checksum release={release} className="mt-2" />
          </>
        ) : (
          <p className="mt-0.5 text-sm text-slate-600">This build is not available yet. Choose a different platform or architecture.</p>
        )}
      </div>

      <div aria-live="polite" className="mt-4 empty:hidden">
        {download.error ? <Alert tone="error">{download.error}</Alert> : null}
        {download.started ? <Alert tone="success">Your download has started.</Alert> : null}
      </div>

      <DownloadForm platform={option.platform} arch={option.arch} onStart={(p, a) => download.start("post-payment", p, a)} className="mt-4">
        <button type="submit" data-autofocus disabled={busy || !release} className={buttonClass("primary", "lg", "w-full")}>
          {busy ? (
            <>
              <span aria-hidden="true">
                <Spinner className="h-5 w-5" />
              </span>
              {DOWNLOAD_MESSAGES.preparing}
            </>
          ) : (
            `Download for ${os}`
          )}
        </button>
      </DownloadForm>
      <p className="mt-3 text-center">
        <Link to={closeTo} replace preventScrollReset className="text-sm font-medium text-brand-700 underline-offset-2 hover:underline">
          Choose different platform or architecture
        </Link>
      </p>
    </>
  );
}
