import { SiteFooter } from "~/components/site-footer";
import { Card, LinkButton } from "~/components/ui";

export const meta = () => [{ title: "Welcome to Modelify" }];

// Post-payment landing. Checkout verification and subscription details arrive with billing.
export default function AuthSuccess() {
  return (
    <>
      <main id="main" className="bg-gradient-to-b from-brand-50 via-white to-white px-4 pb-20 pt-28">
        <Card className="mx-auto max-w-xl p-8 text-center">
          <h1 className="text-3xl font-bold tracking-tight text-slate-900">Welcome to Modelify!</h1>
          <p className="mt-3 text-slate-600">Thanks for joining. Here is how to get started:</p>
          <ol className="mx-auto mt-6 max-w-sm list-decimal space-y-2 pl-5 text-left text-sm text-slate-700">
            <li>Install the desktop app for your platform.</li>
            <li>Add your provider API keys under Settings, then API Keys.</li>
            <li>Pick an agent or a model and start building.</li>
          </ol>
          <LinkButton to="/dashboard" className="mt-8">
            Go to Dashboard
          </LinkButton>
          <p className="mt-6 text-xs text-slate-500">
            Questions? Write to <a className="text-brand-700 underline" href="mailto:support@modelify.dev">support@modelify.dev</a>.
          </p>
        </Card>
      </main>
      <SiteFooter />
    </>
  );
}
