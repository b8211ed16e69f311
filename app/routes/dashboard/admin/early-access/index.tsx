// The early-access administration (ADR 0012): the waitlist and the keys, searchable and paged
// through the URL (so it works without JavaScript), granting, revoking and the statistics.
// Admins only: anyone else gets the 404 of a page that does not exist, in every loader and action.
// Unassigned keys are created by ./keys.csv.ts, whose answer is the CSV download itself.
import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "react-router";
import type { Route } from "./+types/index";
import { EarlyAccessAdmin } from "~/components/early-access/admin-page";
import { TabError } from "~/components/dashboard/tab-error";
import { EARLY_ACCESS } from "~/lib/constants";
import { earlyAccessStats, grantEarlyAccess, grantTopEntries, KEY_STATES, listKeys, listWaitlist, revokeKey } from "~/lib/early-access/admin.server";
import { z } from "~/lib/zod";
import { requireAdmin } from "~/server/auth.server";
import { app } from "~/server/context.server";
import { readForm } from "~/server/requests.server";
import { pageMeta } from "~/lib/site/meta";

export const meta = () => pageMeta("Early Access | Modelify");

// The address bar is user input too: anything unreadable falls back to the first page of the default view.
const query = z.string().trim().max(100).catch("");
const page = z.coerce.number().int().min(1).max(1_000_000).catch(1);
const searchSchema = z.object({
  view: z.enum(["waiting", "all"]).catch("waiting"),
  q: query,
  page,
  kstate: z.enum(["all", ...KEY_STATES]).catch("all"),
  kq: query,
  kpage: page,
});

const id = z.string().trim().min(1).max(64);
const COUNT_RANGE = `Enter a number from 1 to ${EARLY_ACCESS.bulkMax}.`;
const formSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("grant"), waitlistId: id }),
  z.object({
    intent: z.literal("grant-top"),
    count: z.coerce.number({ error: COUNT_RANGE }).int({ error: COUNT_RANGE }).min(1, { error: COUNT_RANGE }).max(EARLY_ACCESS.bulkMax, { error: COUNT_RANGE }),
  }),
  z.object({ intent: z.literal("revoke"), keyId: id }),
]);

export async function loader({ request, context }: Route.LoaderArgs) {
  requireAdmin(context);
  const { db } = app(context);
  const params = new URL(request.url).searchParams;
  const search = searchSchema.parse({
    view: params.get("view") ?? undefined,
    q: params.get("q") ?? undefined,
    page: params.get("page") ?? undefined,
    kstate: params.get("kstate") ?? undefined,
    kq: params.get("kq") ?? undefined,
    kpage: params.get("kpage") ?? undefined,
  });
  const now = Date.now();
  const [waitlist, keys, stats] = await Promise.all([
    listWaitlist(db, { view: search.view, q: search.q, page: search.page }),
    listKeys(db, { state: search.kstate, q: search.kq, page: search.kpage }, now),
    earlyAccessStats(db, now),
  ]);
  return { search, waitlist, keys, stats, bulkMax: EARLY_ACCESS.bulkMax };
}

export async function action({ request, context }: Route.ActionArgs) {
  const admin = requireAdmin(context);
  const read = await readForm(request);
  if (!read.ok) return data({ ok: false, message: read.message }, { status: read.status });
  const submission = parseWithZod(read.formData, { schema: formSchema });
  if (submission.status !== "success") {
    // "Grant the top N" is the one form a person types into: its refusal also shows beside its field.
    if (read.formData.get("intent") === "grant-top") return data({ ok: false, message: COUNT_RANGE, grantTop: submission.reply() }, { status: 400 });
    return data({ ok: false, message: "That request could not be understood. Please use the buttons on the page." }, { status: 400 });
  }
  const { db, queue, origin } = app(context);
  const input = submission.value;
  const outcome =
    input.intent === "grant"
      ? await grantEarlyAccess({ db, queue, origin }, { adminId: admin.id, waitlistId: input.waitlistId })
      : input.intent === "grant-top"
        ? await grantTopEntries({ db, queue, origin }, { adminId: admin.id, count: input.count })
        : await revokeKey(db, { adminId: admin.id, keyId: input.keyId });
  return outcome.ok ? { ok: true, message: outcome.message } : data({ ok: false, message: outcome.message }, { status: outcome.status });
}

export default function AdminEarlyAccess({ loaderData, actionData }: Route.ComponentProps) {
  return <EarlyAccessAdmin {...loaderData} result={actionData} />;
}

export const ErrorBoundary = TabError;
