// The alerts tab's actions (issue 49): health rules and webhooks, each only the signed-in
// account's. A webhook sends account data out, so its owner is mailed when one is added, and an
// account adds at most WEBHOOK_ADDS_PER_ACCOUNT a day.
import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "react-router";
import { ruleFormSchema, removeFormSchema, webhookFormSchema } from "~/lib/alerts/forms";
import { webhookAddedMail } from "~/lib/alerts/mail.server";
import { addRule, addWebhook, deleteRule, deleteWebhook } from "~/lib/alerts/store.server";
import { newWebhookSecret, sealWebhookSecret } from "~/lib/alerts/webhook-secret";
import { HEALTH_ALERTS, WEBHOOK_ADDS_PER_ACCOUNT, WEBHOOKS } from "~/lib/constants";
import { formatDuration } from "~/lib/format";
import { webhookKeys } from "~/lib/keys";
import { overCap } from "~/lib/limits/counters.server";
import { log } from "~/lib/log/log.server";
import { enqueueMails } from "~/lib/mail/mail.server";
import type { SessionUser } from "~/lib/auth/session.server";
import type { AppContext } from "~/server/context.server";
import { retryAfter } from "~/server/responses.server";

type Deps = Pick<AppContext, "db" | "env" | "queue">;

export async function addRuleAction(deps: Deps, user: SessionUser, form: FormData) {
  const submission = parseWithZod(form, { schema: ruleFormSchema, disableAutoCoercion: true });
  if (submission.status !== "success") return data({ form: "rule" as const, result: submission.reply() }, { status: 400 });
  if (!(await addRule(deps.db, user.id, submission.value.kind, submission.value.threshold))) {
    const message = `An account can have at most ${HEALTH_ALERTS.maxRulesPerAccount} alert rules. Remove one first.`;
    return data({ form: "rule" as const, result: submission.reply({ formErrors: [message] }) }, { status: 409 });
  }
  return null;
}

export async function addWebhookAction(deps: Deps, user: SessionUser, form: FormData, now = Date.now()) {
  const submission = parseWithZod(form, { schema: webhookFormSchema, disableAutoCoercion: true });
  if (submission.status !== "success") return data({ form: "webhook" as const, result: submission.reply() }, { status: 400 });
  const keys = webhookKeys(deps.env);
  if (!keys) {
    log.error("webhook_key_missing", {});
    return data(
      { form: "webhook" as const, result: submission.reply({ formErrors: ["Webhooks are not available right now. Please try again later."] }) },
      { status: 503 },
    );
  }
  // Counted before the write in one atomic statement, a refused add too: a burst cannot slip past.
  const wait = await overCap(deps.db, `webhook:add:user:${user.id}`, WEBHOOK_ADDS_PER_ACCOUNT, now);
  if (wait !== null) {
    const message = `You have added ${WEBHOOK_ADDS_PER_ACCOUNT.limit} webhooks within ${formatDuration(WEBHOOK_ADDS_PER_ACCOUNT.windowMs, "day", { article: true })}, the most an account may: try again tomorrow.`;
    return data({ form: "webhook" as const, result: submission.reply({ formErrors: [message] }) }, { status: 429, headers: retryAfter(wait) });
  }
  const secret = newWebhookSecret();
  const id = await addWebhook(deps.db, user.id, submission.value.url, await sealWebhookSecret(keys, secret), now);
  if (!id) {
    const message = `An account can have at most ${WEBHOOKS.maxPerAccount} webhooks. Remove one first.`;
    return data({ form: "webhook" as const, result: submission.reply({ formErrors: [message] }) }, { status: 409 });
  }
  const host = new URL(submission.value.url).host;
  await enqueueMails(deps.queue, [webhookAddedMail(user.email, host, now, user.profile.timeZone)]).catch((error) =>
    log.error("webhook_added_mail_failed", {}, error),
  );
  // Shown once, on this answer only: the page after it never has the secret again.
  return data({ form: "webhook" as const, created: { id, url: submission.value.url, secret }, result: submission.reply({ resetForm: true }) });
}

export async function removeAction(deps: Deps, user: SessionUser, form: FormData, what: "rule" | "webhook") {
  const parsed = removeFormSchema.safeParse({ id: form.get("id") });
  const gone = parsed.success && (what === "rule" ? await deleteRule(deps.db, user.id, parsed.data.id) : await deleteWebhook(deps.db, user.id, parsed.data.id));
  // Another account's id is answered as one that does not exist.
  if (!gone)
    return data(
      { form: what, result: { status: "error" as const, error: { "": [`No such ${what === "rule" ? "alert rule" : "webhook"}.`] } } },
      { status: 404 },
    );
  return null;
}
