// The landing page's download section: a card per platform and the three steps to get going.
// A click is gated: visitors sign in, signed-in users without a subscription see pricing, and
// subscribers get the download dialog (?download=<platform>, so it also works without JavaScript).
import { useLocation, Link } from "react-router";
import { type MobileDevice, PLATFORM_LABELS, type Platform, PLATFORMS } from "~/lib/downloads/options";
import type { ReleaseView } from "~/lib/downloads/releases.server";
import { DesktopOnlyNotice } from "./desktop-only";
import { BuildFacts, DownloadDialog, suggestedBuild } from "./download-dialog";
import { withParam } from "./modal";
import { buttonClass, Card, IconTile } from "./ui";

export type DownloadAccess = "visitor" | "free" | "subscriber";

const CARDS: Record<Platform, { format: string; detail: string; icon: string }> = {
  windows: {
    format: "MSI installer",
    detail: "Windows 10 and 11, 64-bit and 32-bit",
    icon: "M3 5.5 10.5 4.5v7H3zM12 4.3 21 3v8.5h-9zM3 12.5h7.5v7L3 18.5zM12 12.5h9V21l-9-1.3z",
  },
  mac: {
    format: "Apple Silicon and Intel",
    detail: "macOS 12 Monterey or later",
    icon: "M4 6a2 2 0 0 1 2-2h12a2 2 0 0 1 2 2v9H4zM2 18h20M9 15.5v2.5M15 15.5v2.5",
  },
  linux: { format: "AppImage", detail: "Ubuntu, Fedora and most distributions", icon: "M4 5h16v14H4zM7.5 10l2.5 2-2.5 2M12 15h4" },
};

const STEPS = [
  { title: "Download and install", text: "Pick your platform, run the installer and open Modelify." },
  { title: "Add your API keys", text: "Paste keys from the providers you use, or point it at a local model. Keys stay on your device." },
  { title: "Start building", text: "Choose a model or one of 120+ agents and get to work." },
];

function gate(access: DownloadAccess, platform: Platform, pathname: string, search: string): string {
  if (access === "visitor") return "/auth";
  if (access === "free") return "/pricing";
  return `${withParam(pathname, search, "download", platform)}#download`;
}

/** One platform's card, its button gated by who is looking. */
function PlatformCard({
  platform,
  access,
  releases,
  onPhone,
}: {
  platform: Platform;
  access: DownloadAccess;
  releases: readonly ReleaseView[];
  onPhone: boolean;
}) {
  const { pathname, search } = useLocation();
  const card = CARDS[platform];
  const build = suggestedBuild(releases, platform);
  return (
    <li className="flex flex-col rounded-2xl border border-slate-200 bg-white p-6 shadow-sm" data-testid={`download-card-${platform}`}>
      <IconTile d={card.icon} />
      <h3 className="mt-4 text-lg font-semibold text-slate-900">{PLATFORM_LABELS[platform]}</h3>
      <p className="text-sm font-medium text-slate-700">{card.format}</p>
      <p className="mt-1 text-sm text-slate-600">{card.detail}</p>
      <BuildFacts release={build?.release} className="mt-3 block" />
      <Link
        to={gate(access, platform, pathname, search)}
        preventScrollReset={access === "subscriber"}
        // On a phone the e-mailed link above is the way forward; the builds stay one tap away.
        className={buttonClass(access === "subscriber" && !onPhone ? "primary" : "secondary", "md", "mt-6 w-full")}
      >
        Download for {PLATFORM_LABELS[platform]}
      </Link>
    </li>
  );
}

/** The three steps. */
function GettingStartedSteps() {
  return STEPS.map((step, i) => (
    <li key={step.title} className="flex gap-4 sm:flex-col sm:items-center sm:text-center">
      <span className="flex h-10 w-10 shrink-0 items-center justify-center rounded-full bg-brand-600 text-sm font-bold text-white" aria-hidden="true">
        {i + 1}
      </span>
      <div>
        <h3 className="font-semibold text-slate-900">
          <span className="sr-only">Step {i + 1}: </span>
          {step.title}
        </h3>
        <p className="mt-1 text-sm leading-6 text-slate-600">{step.text}</p>
      </div>
    </li>
  ));
}

export function DownloadSection({
  access,
  releases,
  openPlatform,
  onPhone,
}: {
  access: DownloadAccess;
  releases: readonly ReleaseView[];
  openPlatform: Platform | null;
  /** A subscriber on a phone or tablet: the link by e-mail, to their own address. */
  onPhone: { device: MobileDevice; email: string } | null;
}) {
  const { pathname, search } = useLocation();
  return (
    <section id="download" aria-labelledby="download-heading" className="scroll-mt-20 border-t border-slate-100 bg-white py-20 sm:py-24">
      <div className="mx-auto max-w-6xl px-4 sm:px-6">
        <div className="mx-auto max-w-2xl text-center">
          <h2 id="download-heading" className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">
            Download Modelify
          </h2>
          <p className="mt-4 text-lg text-slate-600">
            {access === "subscriber"
              ? "Get the desktop app for your computer."
              : access === "free"
                ? "Downloads come with a subscription. Start your free trial to get the app."
                : "Sign in with a subscription to download the desktop app."}
          </p>
        </div>

        {onPhone ? (
          <Card className="mx-auto mt-10 max-w-2xl p-6">
            <DesktopOnlyNotice device={onPhone.device} email={onPhone.email} headingLevel="h3" />
          </Card>
        ) : null}

        <ul className="mt-12 grid gap-6 md:grid-cols-3">
          {PLATFORMS.map((platform) => (
            <PlatformCard key={platform} platform={platform} access={access} releases={releases} onPhone={onPhone !== null} />
          ))}
        </ul>
        {access === "visitor" ? (
          <p className="mt-6 text-center text-sm text-slate-600">
            New here?{" "}
            <Link to="/auth?mode=signup" className="font-semibold text-brand-700 hover:text-brand-800">
              Create an account
            </Link>{" "}
            and start a free trial.
          </p>
        ) : null}

        <ol className="mx-auto mt-16 grid max-w-5xl gap-8 sm:grid-cols-3">
          <GettingStartedSteps />
        </ol>
      </div>

      {openPlatform && access === "subscriber" ? (
        <DownloadDialog platform={openPlatform} releases={releases} closeTo={`${withParam(pathname, search, "download", null)}#download`} />
      ) : null}
    </section>
  );
}
