// /api-reference: the desktop API's reference, rendered on the server from the OpenAPI document the
// API serves (lib/openapi/reference.ts), so it cannot say other than /api/v1/openapi.json does.
import type { Route } from "./+types/api-reference";
import { SiteFooter } from "~/components/site-footer";
import { ApiReference } from "~/components/site/api-reference";
import { Card } from "~/components/ui";
import { apiReference, type ReferenceView } from "~/lib/openapi/reference";
import { pageMeta } from "~/lib/site/meta";

// Built once per isolate: the document only changes with a deploy. The same object every time, so
// the page's markup is rendered once per isolate too (a prerendered part).
let page: { reference: ReferenceView } | undefined;

export function loader() {
  page ??= { reference: apiReference() };
  return page;
}

export function meta() {
  return pageMeta("API reference | Modelify", {
    description:
      "The Modelify desktop API: the device sign-in (OAuth 2.0, RFC 8628), tokens, entitlements and usage reports, with every field, rule, example and answer.",
  });
}

export default function ApiReferencePage({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <main id="main" className="bg-gradient-to-b from-brand-50 via-white to-white px-4 pb-20 pt-28 sm:px-6 sm:pt-32">
        <Card className="mx-auto max-w-4xl p-5 sm:p-10">
          <article className="text-slate-800">
            <ApiReference {...loaderData} />
          </article>
        </Card>
      </main>
      <SiteFooter />
    </>
  );
}
