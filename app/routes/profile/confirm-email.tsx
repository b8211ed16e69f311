// /profile/confirm-email?token=…: where the link sent to a new e-mail address lands. GET only
// shows what the link would do; the change takes a POST (the button), so mail scanners that
// fetch links cannot confirm it. The token alone decides, signed in or not
// (lib/profile/email-change.server.ts says why).
import { data, Form } from "react-router";
import type { Route } from "./+types/confirm-email";
import { AuthShell } from "~/components/auth-shell";
import { Alert, Button, LinkButton } from "~/components/ui";
import { confirmEmailChange, peekEmailChange } from "~/lib/profile/email-change.server";
import { EMAIL_CHANGE_MESSAGES } from "~/lib/profile/messages";
import { getAuth } from "~/server/auth.server";
import { app } from "~/server/context.server";
import { readForm } from "~/server/requests.server";
import { pageMeta } from "~/lib/site/meta";

export const meta = () => pageMeta("Confirm Your New E-mail | Modelify");

export async function loader({ request, context }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token");
  const signedIn = getAuth(context).user !== null;
  const change = await peekEmailChange(app(context).db, token);
  if (!change) return data({ state: "invalid" as const, signedIn, message: EMAIL_CHANGE_MESSAGES.invalidLink }, { status: token ? 400 : 404 });
  return { state: "confirm" as const, signedIn, token: token ?? "", newEmail: change.newEmail };
}

export async function action({ request, context }: Route.ActionArgs) {
  const read = await readForm(request);
  if (!read.ok) return data({ state: "invalid" as const, message: read.message }, { status: read.status });
  const outcome = await confirmEmailChange(app(context), read.formData.get("token"));
  if (!outcome.ok) return data({ state: "invalid" as const, message: outcome.error }, { status: outcome.status });
  // An explicit status: the page's loader runs again after the action and now finds the link
  // used up, and its 400 would otherwise become the status of this success page.
  return data({ state: "changed" as const, email: outcome.email }, { status: 200 });
}

export default function ConfirmEmail({ loaderData, actionData }: Route.ComponentProps) {
  const next = loaderData.signedIn ? { to: "/dashboard/profile", label: "Go to Profile" } : { to: "/auth?mode=signin", label: "Sign In" };

  if (actionData?.state === "changed") {
    return (
      <AuthShell title="E-mail address changed">
        <Alert tone="success">{EMAIL_CHANGE_MESSAGES.changed(actionData.email)}</Alert>
        <LinkButton to="/dashboard" className="mt-6 w-full">
          Go to Dashboard
        </LinkButton>
      </AuthShell>
    );
  }

  const failure = actionData?.state === "invalid" ? actionData.message : loaderData.state === "invalid" ? loaderData.message : null;
  if (failure !== null || loaderData.state !== "confirm") {
    return (
      <AuthShell title="This link cannot be used">
        <Alert tone="error">{failure ?? EMAIL_CHANGE_MESSAGES.invalidLink}</Alert>
        <LinkButton to={next.to} className="mt-6 w-full">
          {next.label}
        </LinkButton>
      </AuthShell>
    );
  }

  return (
    <AuthShell title="Confirm your new e-mail address" subtitle="Your Modelify account will use this address to sign in and for every e-mail.">
      <p className="break-all rounded-lg bg-slate-50 px-4 py-3 text-center font-medium text-slate-900" data-testid="new-email">
        {loaderData.newEmail}
      </p>
      <Form method="post" className="mt-6">
        <input type="hidden" name="token" value={loaderData.token} />
        <Button type="submit" className="w-full" size="lg">
          Confirm E-mail Address
        </Button>
      </Form>
      <p className="mt-4 text-center text-sm text-slate-600">Not you? Close this page: nothing changes until you confirm.</p>
    </AuthShell>
  );
}
