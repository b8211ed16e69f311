// The profile's "Password" card (issue 46): the way to change it while signed in, and the notice
// after a change (?password=changed, whose words are the server's own list: lib/auth/messages.ts).
import { useSearchParams } from "react-router";
import { AUTH_MESSAGES } from "~/lib/auth/messages";
import { Alert, Card, LinkButton } from "../ui";

export function PasswordCard() {
  const [params] = useSearchParams();
  const changed = params.get("password") === "changed";
  return (
    <section aria-labelledby="password-title">
      <Card className="p-6">
        <div className="flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between">
          <div className="min-w-0 flex-1">
            <h2 id="password-title" className="text-lg font-semibold text-slate-900">
              Password
            </h2>
            <p className="mt-1 text-sm text-slate-600">
              Change it here with your current one. Forgot it? Sign out and use "Forgot password?" on the sign-in page.
            </p>
          </div>
          <LinkButton to="/dashboard/profile/password" variant="secondary" className="w-full shrink-0 sm:w-auto">
            Change Password
          </LinkButton>
        </div>
        {changed ? (
          <Alert tone="success" className="mt-4">
            {AUTH_MESSAGES.passwordChanged}
          </Alert>
        ) : null}
      </Card>
    </section>
  );
}
