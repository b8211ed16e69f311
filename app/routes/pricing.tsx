import type { Route } from "./+types/pricing";
import { PricingSection } from "~/components/pricing-section";
import { SiteFooter } from "~/components/site-footer";
import { pricingState } from "~/lib/billing/pricing.server";
import { getAuth } from "~/server/auth.server";
import { app } from "~/server/context.server";
import { pageMeta } from "~/lib/site/meta";

export const meta = () => pageMeta("Pricing | Modelify");

export async function loader({ context }: Route.LoaderArgs) {
  const { db, env } = app(context);
  return { pricing: await pricingState(db, env, getAuth(context).user) };
}

export default function Pricing({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <main id="main" className="bg-gradient-to-b from-brand-50 via-white to-white pt-16">
        <PricingSection state={loaderData.pricing} pageHeading />
      </main>
      <SiteFooter />
    </>
  );
}
