// Dashboard → Dead Letters: queue messages that failed for good, for admins to replay or discard
// (ADR 0024). Both actions are audited; anyone else gets the 404 of a page that does not exist,
// in the loader and the action alike.
import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "react-router";
import type { Route } from "./+types/dead-letters";
import { DeadLettersTab } from "~/components/dashboard/dead-letters-tab";
import { TabError } from "~/components/dashboard/tab-error";
import { DEAD_LETTERS, MS } from "~/lib/constants";
import { discardDeadLetter, replayDeadLetter } from "~/lib/dead-letters/replay.server";
import { listDeadLetters } from "~/lib/dead-letters/store.server";
import { pageMeta } from "~/lib/site/meta";
import { z } from "~/lib/zod";
import { requireAdmin } from "~/server/auth.server";
import { app } from "~/server/context.server";
import { readForm } from "~/server/requests.server";

export const meta = () => pageMeta("Dead Letters | Modelify");

// Queue message ids, and a report's own within its message (`<id>.<index>`).
const id = z
  .string()
  .trim()
  .min(1)
  .max(128)
  .regex(/^[A-Za-z0-9._:-]+$/);
const formSchema = z.discriminatedUnion("intent", [z.object({ intent: z.literal("replay"), id }), z.object({ intent: z.literal("discard"), id })]);

export async function loader({ request, context }: Route.LoaderArgs) {
  requireAdmin(context);
  const { rows, total } = await listDeadLetters(app(context).db);
  const discard = id.safeParse(new URL(request.url).searchParams.get("discard"));
  return { rows, total, keepDays: DEAD_LETTERS.keepMs / MS.DAY, confirmDiscard: discard.success ? discard.data : null };
}

export async function action({ request, context }: Route.ActionArgs) {
  const admin = requireAdmin(context);
  const read = await readForm(request);
  if (!read.ok) return data({ ok: false, message: read.message }, { status: read.status });
  const submission = parseWithZod(read.formData, { schema: formSchema });
  if (submission.status !== "success")
    return data({ ok: false, message: "That request could not be understood. Please use the buttons on the page." }, { status: 400 });
  const { db, queue, env } = app(context);
  const input = { adminId: admin.id, id: submission.value.id };
  const outcome =
    submission.value.intent === "replay" ? await replayDeadLetter({ db, queue, key: env.DEAD_LETTER_KEY }, input) : await discardDeadLetter(db, input);
  return outcome.ok ? { ok: true, message: outcome.message } : data({ ok: false, message: outcome.message }, { status: outcome.status });
}

export default function AdminDeadLetters({ loaderData, actionData }: Route.ComponentProps) {
  return <DeadLettersTab {...loaderData} result={actionData} />;
}

export const ErrorBoundary = TabError;
