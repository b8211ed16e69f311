// /legal/privacy, /legal/terms, /legal/security, /legal/api: each document of the policy dialog
// as a page with its own URL, for links from e-mails and the footer, with or without JavaScript.
import type { Route } from "./+types/legal";
import { SiteFooter } from "~/components/site-footer";
import { LegalDocument, LegalTabs } from "~/components/site/legal-document";
import { Card } from "~/components/ui";
import { LEGAL, legalDocById } from "~/lib/site/legal";
import { pageMeta } from "~/lib/site/meta";

export function loader({ params }: Route.LoaderArgs) {
  const doc = legalDocById(params.doc);
  if (!doc) throw new Response("Not found", { status: 404 });
  return { doc };
}

export function meta({ loaderData }: Route.MetaArgs) {
  return pageMeta(`${loaderData ? LEGAL[loaderData.doc].title : "Not found"} | Modelify`);
}

export default function Legal({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <main id="main" className="bg-gradient-to-b from-brand-50 via-white to-white px-4 pb-20 pt-28 sm:px-6 sm:pt-32">
        <div className="mx-auto max-w-3xl">
          <LegalTabs current={loaderData.doc} hrefFor={(doc) => `/legal/${doc}`} />
          <Card className="mt-6 p-6 sm:p-10">
            <LegalDocument doc={loaderData.doc} headingLevel={1} />
          </Card>
        </div>
      </main>
      <SiteFooter />
    </>
  );
}
