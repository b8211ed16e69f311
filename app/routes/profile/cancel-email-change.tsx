// /profile/cancel-email-change?token=…: the link in the notice sent to the account's current
// address when a change to another address is asked for. GET only shows what the link would do;
// cancelling takes a POST (the button), so mail scanners that fetch links cannot use it up.
import { data, Form } from "react-router";
import type { Route } from "./+types/cancel-email-change";
import { AuthShell } from "~/components/auth-shell";
import { Alert, Button, LinkButton } from "~/components/ui";
import { cancelEmailChangeFromLink, peekEmailChangeCancel } from "~/lib/profile/email-change.server";
import { EMAIL_CHANGE_MESSAGES } from "~/lib/profile/messages";
import { app } from "~/server/context.server";
import { clearSessionCookies, headersWithCookies } from "~/server/cookies.server";
import { readForm } from "~/server/requests.server";
import { pageMeta } from "~/lib/site/meta";

export const meta = () => pageMeta("Cancel E-mail Change | Modelify");

export async function loader({ request, context }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token");
  const change = await peekEmailChangeCancel(app(context).db, token);
  if (!change) return data({ state: "invalid" as const, message: EMAIL_CHANGE_MESSAGES.cancelInvalidLink }, { status: token ? 400 : 404 });
  return { state: "cancel" as const, token: token ?? "", pendingEmail: change.pendingEmail };
}

export async function action({ request, context }: Route.ActionArgs) {
  const read = await readForm(request);
  if (!read.ok) return data({ state: "invalid" as const, message: read.message }, { status: read.status });
  const outcome = await cancelEmailChangeFromLink(app(context), read.formData.get("token"));
  if (!outcome.ok) return data({ state: "invalid" as const, message: outcome.error }, { status: outcome.status });
  // Every session ended, this browser's too: its cookies go with it.
  const headers = headersWithCookies(await clearSessionCookies(new URL(request.url)));
  return data({ state: "cancelled" as const }, { status: 200, headers });
}

export default function CancelEmailChange({ loaderData, actionData }: Route.ComponentProps) {
  if (actionData?.state === "cancelled") {
    return (
      <AuthShell title="E-mail change cancelled">
        <Alert tone="success">{EMAIL_CHANGE_MESSAGES.cancelled}</Alert>
        <p className="mt-4 text-sm text-slate-700">
          If you did not ask for this change, someone knows your password. Choose a new one now; the reset link goes to this address.
        </p>
        <LinkButton to="/auth?mode=forgot-password" className="mt-6 w-full">
          Reset My Password
        </LinkButton>
      </AuthShell>
    );
  }

  const failure = actionData?.state === "invalid" ? actionData.message : loaderData.state === "invalid" ? loaderData.message : null;
  if (failure !== null || loaderData.state !== "cancel") {
    return (
      <AuthShell title="This link cannot be used">
        <Alert tone="error">{failure ?? EMAIL_CHANGE_MESSAGES.cancelInvalidLink}</Alert>
        <LinkButton to="/auth?mode=signin" className="mt-6 w-full">
          Sign In
        </LinkButton>
      </AuthShell>
    );
  }

  return (
    <AuthShell title="Cancel the e-mail change?" subtitle="Someone asked to move your Modelify account to this address:">
      <p className="break-all rounded-lg bg-slate-50 px-4 py-3 text-center font-medium text-slate-900" data-testid="pending-email">
        {loaderData.pendingEmail}
      </p>
      <p className="mt-4 text-sm text-slate-700">
        Cancelling keeps your current address, and signs out every browser and desktop app on your account, this one included.
      </p>
      <Form method="post" className="mt-6">
        <input type="hidden" name="token" value={loaderData.token} />
        <Button type="submit" className="w-full" size="lg">
          Cancel the Change and Sign Out Everywhere
        </Button>
      </Form>
      <p className="mt-4 text-center text-sm text-slate-600">Was it you? Close this page: the change goes ahead when the new inbox confirms it.</p>
    </AuthShell>
  );
}
