import { useLocation, Link } from "react-router";
import type { Route } from "./+types/home";
import { AppPreview } from "~/components/app-preview";
import { type DownloadAccess, DownloadSection } from "~/components/download-section";
import { FaqSection } from "~/components/faq-section";
import { SiteFooter } from "~/components/site-footer";
import { useMarketingEvent } from "~/components/site/marketing";
import { IconTile, LinkButton } from "~/components/ui";
import { PricingSection } from "~/components/pricing-section";
import { SiteNoticeBanner } from "~/components/site/site-notice";
import { withParam } from "~/components/modal";
import { homeNotice } from "~/lib/site/notices";
import { PLAN_PRICE } from "~/lib/billing/plan-comparison";
import { pricingState } from "~/lib/billing/pricing.server";
import { PLAN } from "~/lib/constants";
import { detectDevice, PLATFORMS, type Platform } from "~/lib/downloads/options";
import { currentReleases } from "~/lib/downloads/releases.server";
import { getAuth } from "~/server/auth.server";
import { app } from "~/server/context.server";

export async function loader({ request, context }: Route.LoaderArgs) {
  const { db, env, userAgent } = app(context);
  const { user } = getAuth(context);
  const [pricing, releases] = await Promise.all([pricingState(db, env, user), currentReleases(db)]);
  const access: DownloadAccess = !pricing.signedIn ? "visitor" : pricing.activated ? "subscriber" : "free";
  const params = new URL(request.url).searchParams;
  // ?download=<platform> opens the download dialog (subscribers only; others are sent on by the cards).
  const asked = params.get("download");
  // A subscriber on a phone is offered the link by e-mail. Only a signed-in page may depend on the
  // User-Agent: the signed-out one is one cached copy for every visitor (server/page-cache.ts).
  const detected = access === "subscriber" && user ? detectDevice(userAgent) : null;
  const onPhone = detected?.kind === "mobile" && user ? { device: detected.device, email: user.email } : null;
  const download = { access, releases, openPlatform: PLATFORMS.find((p): p is Platform => p === asked) ?? null, onPhone };
  const notice = homeNotice(params);
  if (!pricing.signedIn) return { pricing, download, notice, cta: { label: "Start Building", to: "/auth" } };
  return {
    pricing,
    download,
    notice,
    cta: pricing.activated ? { label: "Go to Dashboard", to: "/dashboard" } : { label: "Get Subscription", to: "/pricing" },
  };
}

const FEATURES = [
  {
    title: "120+ Specialized Agents",
    text: "Research, code review, writing, data analysis and more: agents tuned for the job, ready in one click.",
    icon: "M12 3l2.5 5 5.5.8-4 3.9.9 5.5L12 15.6 7.1 18.2l.9-5.5-4-3.9 5.5-.8z",
  },
  {
    title: "Cross-Model Compatibility",
    text: "160+ models from 12+ providers, cloud and local. Switch models mid-conversation and compare answers.",
    icon: "M4 7h10M4 12h16M4 17h10M17 5l3 2-3 2M17 15l3 2-3 2",
  },
  {
    title: "Your API Keys",
    text: "Bring your own provider keys. You pay providers directly at their prices, with no mark-up from us.",
    icon: "M15 7a4 4 0 1 1-3.9 4.9L4 19v-3h3v-3h3l1.1-1.1A4 4 0 0 1 15 7Z",
  },
  {
    title: "Persistent History",
    text: "Every conversation is saved and searchable on your device, across models and agents.",
    icon: "M12 8v4l3 2M4 12a8 8 0 1 0 2.3-5.7M4 4v4h4",
  },
  {
    title: "Lightning Fast",
    text: "A native desktop app that streams responses as they are generated, without a browser in the way.",
    icon: "M13 3 4 14h7l-1 7 9-11h-7z",
  },
  {
    title: "Privacy First",
    text: "Conversations and keys stay on your machine. Keys are encrypted at rest with AES-256-GCM.",
    icon: "M12 3l8 3v6c0 4.5-3.4 8.3-8 9-4.6-.7-8-4.5-8-9V6z",
  },
];

/** The features section's content: the same for everyone (a prerendered part). */
function FeatureGrid() {
  return (
    <div className="mx-auto max-w-6xl px-4 sm:px-6">
      <div className="mx-auto max-w-2xl text-center">
        <h2 className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">Everything you need to work with AI</h2>
        <p className="mt-4 text-lg text-slate-600">One app, every model, your keys. No juggling browser tabs and subscriptions.</p>
      </div>
      <div className="mt-14 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
        {FEATURES.map((f) => (
          <div key={f.title} className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm transition-shadow hover:shadow-md">
            <IconTile d={f.icon} />
            <h3 className="mt-4 text-lg font-semibold text-slate-900">{f.title}</h3>
            <p className="mt-2 text-sm leading-6 text-slate-600">{f.text}</p>
          </div>
        ))}
      </div>
    </div>
  );
}

export default function Home({ loaderData }: Route.ComponentProps) {
  const { cta, pricing, download, notice } = loaderData;
  const { pathname, search } = useLocation();
  useMarketingEvent("ViewContent", { perVisit: true });
  return (
    <>
      <main id="main">
        <section className="relative overflow-hidden bg-gradient-to-b from-brand-50 via-white to-white pt-28 sm:pt-36">
          <div className="mx-auto max-w-6xl px-4 text-center sm:px-6">
            {notice ? <SiteNoticeBanner notice={notice} dismissTo={withParam(pathname, search, "accountDeleted", null)} /> : null}
            <span className="inline-flex items-center gap-2 rounded-full border border-brand-200 bg-white px-3 py-1 text-xs font-semibold text-brand-700 shadow-sm">
              <span className="h-1.5 w-1.5 rounded-full bg-brand-600" aria-hidden="true" />
              Desktop app for Windows, macOS and Linux
            </span>
            <h1 className="mx-auto mt-6 max-w-3xl text-4xl font-extrabold tracking-tight text-slate-900 sm:text-6xl">
              Build Your Business with <span className="text-brand-600">Smart AI Solutions</span>
            </h1>
            <p className="mx-auto mt-6 max-w-2xl text-lg leading-8 text-slate-600">
              Modelify puts 160+ AI models and 120+ specialised agents in one desktop app. Bring your own API keys, keep your data on your device, and get work
              done faster.
            </p>
            <div className="mt-10 flex flex-col items-center justify-center gap-3 sm:flex-row">
              <LinkButton to={cta.to} size="lg" className="w-full sm:w-auto" data-testid="hero-cta">
                {cta.label}
              </LinkButton>
              <LinkButton to="#preview" variant="secondary" size="lg" className="w-full sm:w-auto">
                <svg viewBox="0 0 24 24" className="h-5 w-5" fill="currentColor" aria-hidden="true">
                  <path d="M8 5v14l11-7z" />
                </svg>
                Watch Demo
              </LinkButton>
            </div>
            <p className="mt-4 text-sm text-slate-500">{`${PLAN_PRICE}/month after a ${PLAN.trialDays}-day free trial. Cancel anytime.`}</p>
            <p className="mt-2 text-sm text-slate-600">
              <Link to="?modal=features" preventScrollReset className="rounded font-semibold text-brand-700 hover:text-brand-800">
                Explore all features
              </Link>
              <span className="mx-2 text-slate-300" aria-hidden="true">
                ·
              </span>
              <Link to="?modal=api-guide" preventScrollReset className="rounded font-semibold text-brand-700 hover:text-brand-800">
                How to get an API key
              </Link>
            </p>
          </div>
          <div id="preview" className="mx-auto mt-16 max-w-6xl scroll-mt-24 px-4 pb-20 sm:px-6">
            <AppPreview />
          </div>
        </section>

        <section id="features" className="scroll-mt-20 border-t border-slate-100 bg-white py-20 sm:py-24">
          <FeatureGrid />
        </section>

        <DownloadSection access={download.access} releases={download.releases} openPlatform={download.openPlatform} onPhone={download.onPhone} />

        <div className="border-t border-slate-100 bg-gradient-to-b from-white to-brand-50/40">
          <PricingSection state={pricing} />
        </div>

        <FaqSection />
      </main>
      <SiteFooter />
    </>
  );
}
