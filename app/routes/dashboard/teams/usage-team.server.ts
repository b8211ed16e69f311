// What the team usage routes check first: a signed-in member of the team the URL names (anyone
// else: 404, telling nothing of the team), and whose usage the viewer may see.
import type { RouterContextProvider } from "react-router";
import { memberTeamBySlug } from "~/lib/teams/member-teams.server";
import { requireUser } from "~/server/auth.server";
import { app } from "~/server/context.server";

const notFound = () => new Response("Not Found", { status: 404 });

export async function requireTeamMember(context: Readonly<RouterContextProvider>, slug: string | undefined) {
  const user = requireUser(context);
  const team = slug ? await memberTeamBySlug(app(context).db, slug, user.id) : null;
  if (!team) throw notFound();
  return { user, team };
}

export { notFound };
