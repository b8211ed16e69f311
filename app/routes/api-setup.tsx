// /api-setup: the API key setup guide as a page of its own (linked from the FAQ), the same guide
// as the dialog, so it can be shared, indexed and used without JavaScript.
import { Link } from "react-router";
import type { Route } from "./+types/api-setup";
import { SiteFooter } from "~/components/site-footer";
import { ApiKeyGuide } from "~/components/site/api-key-guide";
import { Card } from "~/components/ui";
import { API_KEYS, READ_API } from "~/lib/constants";
import { providerById } from "~/lib/site/providers";

export function meta({ location }: Route.MetaArgs) {
  const provider = providerById(new URLSearchParams(location.search).get("provider"));
  return [
    { title: `${provider ? `${provider.name} API key` : "API Key Setup Guide"} | Modelify` },
    {
      name: "description",
      content: "How to get an API key from OpenAI, Anthropic, Google and twelve more providers, or run local models without one, for Modelify.",
    },
  ];
}

export default function ApiSetup() {
  return (
    <>
      <main id="main" className="bg-gradient-to-b from-brand-50 via-white to-white px-4 pb-20 pt-28 sm:px-6 sm:pt-32">
        <div className="mx-auto max-w-4xl">
          <h1 className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">API Key Setup Guide</h1>
          <p className="mt-3 max-w-2xl text-lg text-slate-600">
            Modelify uses your own API keys. Choose a provider to see how to get a key, or run local models with none.
          </p>
          <Card className="mt-8 p-5 sm:p-8">
            <ApiKeyGuide headingLevel={2} />
          </Card>
          <ReadApi />
        </div>
      </main>
      <SiteFooter />
    </>
  );
}

/** Modelify's own read API: a personal key of the dashboard reads one's usage from a script. */
function ReadApi() {
  return (
    <Card className="mt-8 p-5 sm:p-8">
      <section aria-labelledby="read-api">
        <h2 id="read-api" className="text-2xl font-bold text-slate-900">
          Read your usage from a script
        </h2>
        <p className="mt-3 text-slate-700">
          Make a personal API key on the dashboard's{" "}
          <Link to="/dashboard/api-keys" className="font-medium text-blue-700 underline">
            API Keys
          </Link>{" "}
          page (it is shown once, and starts with <code className="font-mono">{API_KEYS.prefix}</code>). It only reads your own usage:
        </p>
        <ul className="mt-3 list-disc space-y-1 pl-6 text-slate-700">
          <li>
            <code className="font-mono">GET /api/v1/usage/summary?from=2026-11-01&amp;to=2026-11-30&amp;group_by=model</code>: totals and groups by model,
            provider, device, request type or date, in your account's time zone.
          </li>
          <li>
            <code className="font-mono">GET /api/v1/usage/requests?model=gpt-4o&amp;status=error</code>: the request log, newest first; pass{" "}
            <code className="font-mono">next_cursor</code> as <code className="font-mono">cursor</code> for the next page.
          </li>
        </ul>
        <pre className="mt-4 whitespace-pre-wrap break-all rounded-md bg-slate-900 p-4 text-sm text-slate-100">
          <code>{`export MODELIFY_API_KEY=${API_KEYS.prefix}…  # your key\ncurl -H "Authorization: Bearer $MODELIFY_API_KEY" \\\n  "$MODELIFY_URL/api/v1/usage/summary?group_by=provider"`}</code>
        </pre>
        <p className="mt-3 text-slate-700">
          {`MODELIFY_URL is this site's address. Each key may make ${READ_API.perMinute} requests a minute. Every field and answer is in the `}
          <Link to="/api-reference#getUsageSummary" className="font-medium text-blue-700 underline">
            API reference
          </Link>
          .
        </p>
      </section>
    </Card>
  );
}
