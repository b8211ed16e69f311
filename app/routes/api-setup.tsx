// /api-setup: the API key setup guide as a page of its own (linked from the FAQ), the same guide
// as the dialog, so it can be shared, indexed and used without JavaScript.
import type { Route } from "./+types/api-setup";
import { SiteFooter } from "~/components/site-footer";
import { ApiKeyGuide } from "~/components/site/api-key-guide";
import { Card } from "~/components/ui";
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
        </div>
      </main>
      <SiteFooter />
    </>
  );
}
