// The profile's "Two-factor authentication" card (issue 29): whether sign-in asks for a code from
// an authenticator app, and the way to turn it on or manage it (the /dashboard/profile/two-factor
// page). "Turn On" is a POST: it makes the setup's secret, which a GET must not.
import { Form, useSearchParams } from "react-router";
import type { TwoFactorStatus } from "~/lib/auth/two-factor.server";
import { Alert, Button, Card, LinkButton } from "../ui";
import { useFormat } from "~/components/format";

const PAGE = "/dashboard/profile/two-factor";

export function TwoFactorCard({ status }: { status: TwoFactorStatus }) {
  const f = useFormat();
  const [params] = useSearchParams();
  const turnedOff = params.get("twoFactor") === "off";
  return (
    <section aria-labelledby="two-factor-title">
      <Card className="p-6">
        {/* On a phone the button goes under the text (beside it, the text had half the card). */}
        <div className="flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between">
          <div className="min-w-0 flex-1">
            <h2 id="two-factor-title" className="text-lg font-semibold text-slate-900">
              Two-factor authentication
            </h2>
            <p className="mt-1 text-sm text-slate-600">
              {status.enabled
                ? `On since ${f.date(status.enabledAt)}. Signing in, approving the desktop app and the app's password sign-in ask for a code from your authenticator app. ${f.plural(status.recoveryCodesLeft, "recovery code")} left.`
                : "Off. Add a code from an authenticator app (such as 1Password, Google Authenticator or Authy) to your password, so a stolen password alone cannot open your account."}
            </p>
          </div>
          {status.enabled ? (
            <LinkButton to={PAGE} variant="secondary" className="w-full shrink-0 sm:w-auto">
              Manage
            </LinkButton>
          ) : (
            <Form method="post" action={PAGE} className="w-full shrink-0 sm:w-auto">
              <input type="hidden" name="intent" value="start" />
              <Button type="submit" className="w-full sm:w-auto">
                Turn On
              </Button>
            </Form>
          )}
        </div>
        {turnedOff && !status.enabled ? (
          <Alert tone="success" className="mt-4">
            Two-factor authentication is off. We e-mailed you about the change.
          </Alert>
        ) : null}
      </Card>
    </section>
  );
}
