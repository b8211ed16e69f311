import type { Route } from "./+types/pricing";
import { PricingSection } from "~/components/pricing-section";
import { SiteFooter } from "~/components/site-footer";
import { getAuth } from "~/lib/auth/request.server";

export const meta = () => [{ title: "Pricing | Modelify" }];

export function loader({ context }: Route.LoaderArgs) {
  return { signedIn: getAuth(context).user !== null };
}

export default function Pricing({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <main id="main" className="bg-gradient-to-b from-brand-50 via-white to-white pt-16">
        <PricingSection signedIn={loaderData.signedIn} />
      </main>
      <SiteFooter />
    </>
  );
}
