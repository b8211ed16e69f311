// /dashboard/teams (issue 50): the account's teams and the form that makes one (its creator owns it).
import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form, Link, redirect, useNavigation } from "react-router";
import type { Route } from "./+types/index";
import { TabError } from "~/components/dashboard/tab-error";
import { CHECKED_ON_THE_SERVER, Field } from "~/components/forms";
import { Alert, Card, SubmitButton } from "~/components/ui";
import { TEAMS } from "~/lib/constants";
import { pageMeta } from "~/lib/site/meta";
import { createTeamSchema } from "~/lib/teams/forms";
import { TEAM_MESSAGES as M } from "~/lib/teams/messages";
import { roleLabel } from "~/lib/teams/roles";
import { createTeam, listTeamsOf } from "~/lib/teams/teams.server";
import { requireUser } from "~/server/auth.server";
import { app } from "~/server/context.server";
import { readForm } from "~/server/requests.server";
import { formErrorResult } from "~/server/responses.server";

export const meta = () => pageMeta("Teams | Modelify", { noindex: true });

export async function loader({ context }: Route.LoaderArgs) {
  const user = requireUser(context);
  return { teams: user.accountRows?.teams ?? (await listTeamsOf(app(context).db, user.id)) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = requireUser(context);
  const read = await readForm(request);
  if (!read.ok) return data({ result: formErrorResult(read.message) }, { status: read.status });
  const submission = parseWithZod(read.formData, { schema: createTeamSchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  const made = await createTeam(app(context).db, user.id, submission.value.name);
  if (!made.ok) return data({ result: submission.reply({ formErrors: [M.tooManyOwned] }) }, { status: 409 });
  throw redirect(`/dashboard/teams/${made.team.slug}`, 303);
}

export default function Teams({ loaderData, actionData }: Route.ComponentProps) {
  const { teams } = loaderData;
  const navigation = useNavigation();
  const [form, fields] = useForm<{ name: string }>({ id: "create-team", lastResult: actionData?.result, ...CHECKED_ON_THE_SERVER });
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">Teams</h1>
        <p className="mt-1 max-w-3xl text-sm text-slate-600">A team shares its members' usage and budget. Your personal plan and pages stay as they are.</p>
      </div>
      <section aria-labelledby="your-teams">
        <Card className="p-6">
          <h2 id="your-teams" className="text-lg font-semibold text-slate-900">
            Your teams
          </h2>
          {teams.length === 0 ? (
            <p className="mt-2 text-sm text-slate-600">You are not in any team yet.</p>
          ) : (
            <ul className="mt-4 divide-y divide-slate-100" aria-label="Your teams">
              {teams.map((team) => (
                <li key={team.slug} className="flex flex-wrap items-center justify-between gap-3 py-3 text-sm">
                  <Link to={`/dashboard/teams/${team.slug}`} className="font-medium break-words text-blue-700 underline">
                    {team.name}
                  </Link>
                  <span className="text-slate-600">{roleLabel(team.role)}</span>
                </li>
              ))}
            </ul>
          )}
        </Card>
      </section>
      <section aria-labelledby="create-team-title">
        <Card className="p-6">
          <h2 id="create-team-title" className="text-lg font-semibold text-slate-900">
            Create a team
          </h2>
          <p className="mt-1 text-sm text-slate-600">{`You will be its owner. A new team has ${TEAMS.unpaidSeats} seats, yours included.`}</p>
          <Form method="post" {...getFormProps(form)} className="mt-4 max-w-md space-y-4">
            {form.errors?.length ? <Alert tone="error">{form.errors[0]}</Alert> : null}
            <Field
              labelProps={{ children: "Team name" }}
              inputProps={{ ...getInputProps(fields.name, { type: "text" }), maxLength: TEAMS.nameMaxLength, autoComplete: "organization" }}
              errors={fields.name.errors}
            />
            <SubmitButton pending={navigation.state === "submitting"} idle="Create Team" busy="Creating Team..." />
          </Form>
        </Card>
      </section>
    </div>
  );
}

export const ErrorBoundary = TabError;
