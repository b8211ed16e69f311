// The API Key Setup Guide, in the dialog (?modal=api-guide) and on /api-setup. Its state is in
// the URL (?provider=…&tab=…), so tabs and providers are links that work without JavaScript and
// can be shared; copying a sample key shows a check for MODAL.copyFeedbackMs.
import { useEffect, useState } from "react";
import { useLocation, Link } from "react-router";
import { MODAL } from "~/lib/constants";
import { GUIDE_REVIEWED, PROVIDERS, providerById, type ProviderGuide } from "~/lib/site/providers";
import { withParams } from "../modal";
import { CheckIcon, cx, segmentClass, useHydrated } from "../ui";

/** Where its headings start: 3 under a dialog's <h2> title, 2 under the /api-setup page's <h1>. */
type HeadingLevel = 2 | 3;

export function ApiKeyGuide({ headingLevel = 3 }: { headingLevel?: HeadingLevel }) {
  const { pathname, search } = useLocation();
  const params = new URLSearchParams(search);
  const provider = providerById(params.get("provider"));
  const tab = provider && params.get("tab") !== "providers" ? "steps" : "providers";
  const href = (changes: Record<string, string | null>) => withParams(pathname, search, changes);
  return (
    <div>
      <nav className="flex w-fit gap-1 rounded-lg bg-slate-100 p-1" aria-label="Guide sections">
        <Link
          to={href({ tab: "providers" })}
          replace
          preventScrollReset
          aria-current={tab === "providers" ? "page" : undefined}
          className={segmentClass(tab === "providers")}
        >
          Choose Provider
        </Link>
        {provider ? (
          <Link
            to={href({ tab: null })}
            replace
            preventScrollReset
            aria-current={tab === "steps" ? "page" : undefined}
            className={segmentClass(tab === "steps")}
          >
            Setup Steps
          </Link>
        ) : (
          <span className={segmentClass(false, "cursor-not-allowed opacity-50")} aria-disabled="true" title="Choose a provider first">
            Setup Steps
          </span>
        )}
      </nav>

      {tab === "providers" || !provider ? (
        <ul className="mt-5 grid gap-3 sm:grid-cols-2" aria-label="Providers">
          {PROVIDERS.map((p) => (
            <li key={p.id}>
              <Link
                to={href({ provider: p.id, tab: null })}
                replace
                preventScrollReset
                className={cx(
                  "block h-full rounded-xl border p-4 transition-colors hover:border-brand-300 hover:bg-brand-50/40",
                  p.id === provider?.id ? "border-brand-500 ring-1 ring-brand-500" : "border-slate-200",
                )}
              >
                <span className="flex items-center justify-between gap-2">
                  <span className="font-semibold text-slate-900">{p.name}</span>
                  {p.local ? <span className="rounded-full bg-emerald-50 px-2 py-0.5 text-xs font-semibold text-emerald-700">No key</span> : null}
                </span>
                <span className="mt-1 block text-sm text-slate-600">{p.description}</span>
                <span className="mt-2 block text-xs text-slate-500">{p.rateLimit}</span>
              </Link>
            </li>
          ))}
        </ul>
      ) : (
        <ProviderSteps provider={provider} headingLevel={headingLevel} />
      )}

      <p className="mt-6 text-xs text-slate-500">
        Prices and limits are the providers' own and change over time; these were checked on {GUIDE_REVIEWED}. Need Help?{" "}
        <Link
          to={href({ modal: "contact", provider: null, tab: null })}
          preventScrollReset
          className="rounded font-semibold text-brand-700 hover:text-brand-800"
        >
          Contact support
        </Link>
      </p>
    </div>
  );
}

function ProviderSteps({ provider, headingLevel }: { provider: ProviderGuide; headingLevel: HeadingLevel }) {
  const [Title, StepTitle] = headingLevel === 2 ? (["h2", "h3"] as const) : (["h3", "h4"] as const);
  return (
    <div className="mt-5" data-testid="guide-steps">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <Title className="text-lg font-semibold text-slate-900">{provider.name}</Title>
        <a href={provider.website} target="_blank" rel="noreferrer" className="rounded text-sm font-medium text-brand-700 hover:text-brand-800">
          {new URL(provider.website).host} <span aria-hidden="true">↗</span>
        </a>
      </div>
      <dl className="mt-3 grid gap-3 text-sm sm:grid-cols-2">
        <div className="rounded-lg bg-slate-50 p-3">
          <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">Pricing</dt>
          <dd className="mt-1 text-slate-800">{provider.pricing}</dd>
        </div>
        <div className="rounded-lg bg-slate-50 p-3">
          <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">Rate limits</dt>
          <dd className="mt-1 text-slate-800">{provider.rateLimit}</dd>
        </div>
      </dl>
      <ol className="mt-5 space-y-5">
        {provider.steps.map((step, i) => (
          <li key={step.title} className="flex gap-3">
            <span className="flex h-7 w-7 flex-none items-center justify-center rounded-full bg-brand-600 text-xs font-semibold text-white" aria-hidden="true">
              {i + 1}
            </span>
            <div className="min-w-0 flex-1">
              <StepTitle className="font-semibold text-slate-900">{step.title}</StepTitle>
              <p className="mt-1 text-sm leading-6 text-slate-600">{step.description}</p>
              {step.action ? (
                <a
                  href={step.action.url}
                  target="_blank"
                  rel="noreferrer"
                  className="mt-2 inline-block rounded text-sm font-semibold text-brand-700 hover:text-brand-800"
                >
                  {step.action.label} <span aria-hidden="true">↗</span>
                </a>
              ) : null}
              {step.sampleKey ? <SampleKey value={step.sampleKey} /> : null}
              {step.note ? <p className="mt-2 rounded-lg bg-amber-50 px-3 py-2 text-xs text-amber-900">{step.note}</p> : null}
            </div>
          </li>
        ))}
      </ol>
    </div>
  );
}

/** A key's format, to recognise the real one; copying it shows a check for 2 s. */
function SampleKey({ value }: { value: string }) {
  const hydrated = useHydrated();
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = window.setTimeout(() => setCopied(false), MODAL.copyFeedbackMs);
    return () => window.clearTimeout(timer);
  }, [copied]);
  return (
    <div className="mt-2">
      <p className="text-xs text-slate-500">The key looks like this:</p>
      <div className="mt-1 flex items-center gap-2 rounded-lg border border-slate-200 bg-slate-50 px-3 py-2">
        <code className="min-w-0 flex-1 truncate font-mono text-xs text-slate-800" data-testid="sample-key">
          {value}
        </code>
        {hydrated ? (
          <button
            type="button"
            onClick={() =>
              navigator.clipboard.writeText(value).then(
                () => setCopied(true),
                () => setCopied(false),
              )
            }
            className="flex-none rounded-md p-1 text-slate-500 hover:bg-slate-200 hover:text-slate-800"
            aria-label={copied ? "Copied" : "Copy sample key"}
          >
            {copied ? (
              <CheckIcon className="h-4 w-4 text-emerald-600" bold />
            ) : (
              <svg viewBox="0 0 24 24" className="h-4 w-4" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
                <rect x="9" y="9" width="11" height="11" rx="2" />
                <path d="M5 15V5a2 2 0 0 1 2-2h10" strokeLinecap="round" />
              </svg>
            )}
          </button>
        ) : null}
      </div>
      <span className="sr-only" aria-live="polite">
        {copied ? "Sample key copied" : ""}
      </span>
    </div>
  );
}
