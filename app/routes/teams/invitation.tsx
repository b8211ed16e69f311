// /teams/invitations/:token (issue 50): a team's invitation. Signed out, the page names nothing
// the inviter chose and asks for a sign-in (or sign-up) with the invited address; signed in with
// another address, it says so; with that address, it shows the team and its "Accept" button.
// Accepting takes one transaction that claims the invitation and a seat (lib/teams/invitations).
import { data, Form, Link, redirect } from "react-router";
import type { Route } from "./+types/invitation";
import { Alert, Button, Card, LinkButton } from "~/components/ui";
import { pageMeta } from "~/lib/site/meta";
import { acceptInvitation, peekInvitation } from "~/lib/teams/invitations.server";
import { TEAM_MESSAGES as M } from "~/lib/teams/messages";
import { roleLabel } from "~/lib/teams/roles";
import { getAuth, requireUser } from "~/server/auth.server";
import { app } from "~/server/context.server";

export const meta = () => pageMeta("Team Invitation | Modelify", { noindex: true });
// The address holds the invitation's secret: no cache keeps the page.
export const headers = () => ({ "Cache-Control": "no-store" });

type View =
  | { kind: "signed-out"; signIn: string }
  | { kind: "gone" }
  | { kind: "wrong-address"; email: string }
  | { kind: "open"; team: string; role: string; email: string };

export async function loader({ params, context }: Route.LoaderArgs): Promise<View> {
  const { user } = getAuth(context);
  if (!user) return { kind: "signed-out", signIn: `/auth?mode=signin&from=invitation&token=${encodeURIComponent(params.token)}` };
  const invitation = await peekInvitation(app(context).db, params.token);
  if (invitation?.state !== "open") return { kind: "gone" };
  if (invitation.email !== user.email.toLowerCase()) return { kind: "wrong-address", email: user.email };
  return { kind: "open", team: invitation.team.name, role: roleLabel(invitation.role), email: user.email };
}

export async function action({ params, context }: Route.ActionArgs) {
  const user = requireUser(context);
  const accepted = await acceptInvitation(app(context).db, params.token, user);
  if (!accepted.ok) return data({ error: accepted.error }, { status: accepted.status });
  throw redirect(`/dashboard/teams/${accepted.slug}`, 303);
}

export default function Invitation({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <main id="main" className="mx-auto max-w-lg px-4 py-12">
      <Card className="p-8">
        <h1 className="text-2xl font-bold tracking-tight text-slate-900">Team invitation</h1>
        {actionData?.error ? (
          <Alert tone="error" className="mt-4">
            {actionData.error}
          </Alert>
        ) : null}
        <InvitationBody view={loaderData} />
      </Card>
    </main>
  );
}

function InvitationBody({ view }: { view: View }) {
  if (view.kind === "signed-out")
    return (
      <>
        <p className="mt-3 text-sm text-slate-600">
          You have been invited to join a team on Modelify. Sign in with the e-mail address the invitation was sent to, to see it and accept it.
        </p>
        <LinkButton to={view.signIn} className="mt-6 w-full">
          Sign In
        </LinkButton>
        <p className="mt-4 text-sm text-slate-600">
          {"No account with that address yet? "}
          <Link to="/auth?mode=signup" className="font-medium text-blue-700 underline">
            Sign up with it
          </Link>
          , confirm it, then open the invitation's link again.
        </p>
      </>
    );
  if (view.kind === "gone") return <p className="mt-3 text-sm text-slate-600">{M.invitationGone}</p>;
  if (view.kind === "wrong-address")
    return (
      <p className="mt-3 text-sm text-slate-600" data-testid="wrong-address">
        {`${M.wrongAddress} You are signed in as ${view.email}.`}
      </p>
    );
  return (
    <>
      <p className="mt-3 text-sm text-slate-600">You have been invited to join</p>
      <p className="mt-1 text-lg font-semibold break-words text-slate-900" data-testid="invitation-team">
        {view.team}
      </p>
      <p className="mt-1 text-sm text-slate-600">{`as ${view.role.toLowerCase()}, with ${view.email}.`}</p>
      <Form method="post" className="mt-6">
        <Button type="submit" className="w-full">
          Accept Invitation
        </Button>
      </Form>
    </>
  );
}
