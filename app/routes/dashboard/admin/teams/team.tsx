// /dashboard/admin/teams/:teamId (issue 50): one team for the site admin. Its usage totals show only
// after the admin gave a reason: the action writes the audit row and the team's activity row, and
// the loader shows the totals while that reason is younger than TEAMS.adminUsageAccessMs. Anyone
// but the site admin, or an unknown team, gets the 404 of a page that does not exist.
import { getFormProps, getTextareaProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form, Link, redirect, useNavigation } from "react-router";
import type { Route } from "./+types/team";
import { FigureList } from "~/components/dashboard/figure-list";
import { TabError } from "~/components/dashboard/tab-error";
import { useFormat } from "~/components/format";
import { CHECKED_ON_THE_SERVER, TextareaField } from "~/components/forms";
import { Alert, Card, SubmitButton } from "~/components/ui";
import { TEAMS } from "~/lib/constants";
import { formatDuration } from "~/lib/format";
import { pageMeta } from "~/lib/site/meta";
import { adminReasonSchema, recordUsageAccess, teamForAdmin, usageAccessUntil } from "~/lib/teams/admin-teams.server";
import { adminTeamUsage } from "~/lib/usage/team-usage.server";
import { requireAdmin } from "~/server/auth.server";
import { app } from "~/server/context.server";
import { readForm } from "~/server/requests.server";
import { formErrorResult } from "~/server/responses.server";

export const meta = () => pageMeta("Team | Admin | Modelify", { noindex: true });

const NOT_FOUND = () => new Response("Not found", { status: 404 });

export async function loader({ params, context }: Route.LoaderArgs) {
  const admin = requireAdmin(context);
  const { db, ledgers } = app(context);
  const team = await teamForAdmin(db, params.teamId);
  if (!team) throw NOT_FOUND();
  const now = Date.now();
  const until = await usageAccessUntil(db, admin.id, team.id, now);
  return { team, until, usage: until === null ? null : await adminTeamUsage(ledgers, team.id, now) };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const admin = requireAdmin(context);
  const { db } = app(context);
  const team = await teamForAdmin(db, params.teamId);
  if (!team) throw NOT_FOUND();
  const read = await readForm(request);
  if (!read.ok) return data({ result: formErrorResult(read.message) }, { status: read.status });
  const submission = parseWithZod(read.formData, { schema: adminReasonSchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  await recordUsageAccess(db, { adminId: admin.id, teamId: team.id, reason: submission.value.reason, now: Date.now() });
  throw redirect(`/dashboard/admin/teams/${team.id}`, 303);
}

export default function AdminTeam({ loaderData, actionData }: Route.ComponentProps) {
  const { team, until, usage } = loaderData;
  const f = useFormat();
  const navigation = useNavigation();
  const [form, fields] = useForm<{ reason: string }>({ id: "usage-reason", lastResult: actionData?.result, ...CHECKED_ON_THE_SERVER });
  return (
    <>
      <Link to="/dashboard/admin/teams" className="text-sm font-medium text-blue-700 underline">
        All teams
      </Link>
      <h1 className="mt-2 text-2xl font-bold tracking-tight break-words text-slate-900 sm:text-3xl">{team.name}</h1>
      <p className="mt-1 text-sm text-slate-600">{`${team.slug} · ${f.plural(team.seats, "seat")}`}</p>
      {usage && until !== null ? (
        <Card className="mt-6 p-5">
          <h2 className="font-semibold text-slate-900">{`Usage of the last ${TEAMS.adminUsageDays} days (UTC)`}</h2>
          <p className="mt-1 text-sm text-slate-600">{`Shown until ${f.time(until)} for the reason you gave; the team's owners and admins see it in their activity log.`}</p>
          <FigureList
            testId="admin-team-usage"
            figures={[
              ["Requests", f.count(usage.totals.totalRequests)],
              ["Tokens", f.count(usage.totals.totalTokens)],
              ["Cost", f.usd(usage.totals.totalCostMicros / 1e6)],
              ["Models", f.count(usage.models)],
            ]}
          />
        </Card>
      ) : (
        <Card className="mt-6 p-5">
          <h2 className="font-semibold text-slate-900">Read this team's usage</h2>
          <p className="mt-1 max-w-2xl text-sm text-slate-600">
            {`Say why you need it. Your reason is kept in the audit log and shown to the team's owners and admins; the usage then shows for ${formatDuration(TEAMS.adminUsageAccessMs, "minute")}.`}
          </p>
          <Form method="post" {...getFormProps(form)} className="mt-4 max-w-xl space-y-4">
            {form.errors?.length ? <Alert tone="error">{form.errors[0]}</Alert> : null}
            <TextareaField
              labelProps={{ children: "Reason" }}
              textareaProps={{ ...getTextareaProps(fields.reason), maxLength: TEAMS.adminReasonMaxLength, rows: 3 }}
              errors={fields.reason.errors}
            />
            <SubmitButton pending={navigation.state === "submitting"} idle="Show Usage" busy="Recording..." />
          </Form>
        </Card>
      )}
    </>
  );
}

export const ErrorBoundary = TabError;
