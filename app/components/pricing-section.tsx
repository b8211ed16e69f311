import { Link } from "react-router";
import { PLAN } from "~/lib/constants";
import { Button, Card, LinkButton } from "./ui";

const FEATURES = [
  "160+ AI models from 12+ providers, cloud and local",
  "120+ specialised agents",
  "Unlimited conversations with persistent history",
  "Usage analytics, budgets and model insights",
  "Windows, macOS and Linux apps with updates",
  "Premium support",
];

export function PricingSection({ signedIn }: { signedIn: boolean }) {
  return (
    <section id="pricing" className="scroll-mt-20 py-20 sm:py-24">
      <div className="mx-auto max-w-6xl px-4 sm:px-6">
        <div className="mx-auto max-w-2xl text-center">
          <h2 className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">Simple, honest pricing</h2>
          <p className="mt-4 text-lg text-slate-600">One plan with everything. You pay model providers directly with your own API keys.</p>
        </div>
        <Card className="mx-auto mt-12 max-w-md p-8">
          <div className="flex items-center justify-between">
            <h3 className="text-lg font-semibold text-slate-900">{PLAN.name}</h3>
            <span className="rounded-full bg-brand-50 px-3 py-1 text-xs font-semibold text-brand-700">{PLAN.trialDays}-day free trial</span>
          </div>
          <p className="mt-6 flex items-baseline gap-1">
            <span className="text-5xl font-extrabold tracking-tight text-slate-900">${PLAN.priceUsd}</span>
            <span className="text-sm font-medium text-slate-500">per month</span>
          </p>
          <p className="mt-2 text-sm text-slate-600">Billed monthly after the trial. Cancel anytime, effective at the end of the period.</p>
          <ul className="mt-8 space-y-3 text-sm text-slate-700">
            {FEATURES.map((f) => (
              <li key={f} className="flex gap-3">
                <svg viewBox="0 0 24 24" className="h-5 w-5 shrink-0 text-brand-600" fill="none" stroke="currentColor" strokeWidth="2.2" aria-hidden="true">
                  <path d="m5 13 4 4L19 7" strokeLinecap="round" strokeLinejoin="round" />
                </svg>
                {f}
              </li>
            ))}
          </ul>
          <div className="mt-8">
            {signedIn ? (
              // Online payment is switched on together with the payment provider's publishable key.
              <Button className="w-full" size="lg" disabled>
                Payment System Not Configured
              </Button>
            ) : (
              <>
                <LinkButton to="/auth?mode=signup&from=pricing&subscribe=true" className="w-full" size="lg">
                  Sign Up to Start
                </LinkButton>
                <p className="mt-4 text-center text-sm text-slate-600">
                  Already have an account?{" "}
                  <Link to="/auth?mode=signin&from=pricing&subscribe=true" className="font-semibold text-brand-700 hover:text-brand-800">
                    Sign In to Subscribe
                  </Link>
                </p>
              </>
            )}
          </div>
        </Card>
      </div>
    </section>
  );
}
