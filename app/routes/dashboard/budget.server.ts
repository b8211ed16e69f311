// Server side of the budget tab's caps of single models and device keys (ADR 0032): what the tab
// shows of them, and its two cap forms. Each choice is checked against the account's own models
// and device keys, so a forged target (another account's device key, a model never used) is refused.
import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect } from "react-router";
import { HARD_CAPS } from "~/lib/constants";
import type { Db } from "~/lib/db.server";
import { log } from "~/lib/log/log.server";
import type { SessionUser } from "~/lib/auth/session.server";
import type { BudgetView } from "~/lib/usage/budget";
import { capOfTarget, capFormSchema, removeCapSchema } from "~/lib/usage/cap-form";
import { capLines } from "~/lib/usage/caps";
import { accountCaps, deviceChoices, modelTarget, removeCap, saveCap } from "~/lib/usage/caps.server";
import { addDays, dayKey, dayStart, startOfNextMonth } from "~/lib/usage/dates";
import { ledgerFor, type LedgerNamespace } from "~/lib/usage/ledger/api";

/** Which of the tab's forms an answer is for: a refused budget form opens the editor again. */
export type BudgetActionData = { form: "budget" | "cap"; result: SubmissionResult<string[]> };

const CAP_SAVE_FAILED = "Failed to save the cap. Please try again.";

/** The budget tab's view: budgets, spend and every cap's state, from one D1 round and one ledger call. */
export async function budgetView({ db, ledgers }: { db: Db; ledgers: LedgerNamespace }, user: SessionUser, params: URLSearchParams, now: number) {
  const zone = user.profile.timeZone;
  const [{ budget, rows, caps }, devices] = await Promise.all([accountCaps(db, user), deviceChoices(db, user.id, now)]);
  const read = await ledgerFor(ledgers, user.id).read({ now, zone, spend: true, models: true, ...(caps.length > 0 && { caps }) });
  const view: BudgetView = {
    settings: budget,
    spent: { month: read.spend!.monthMicros / 1e6, today: read.spend!.dayMicros / 1e6 },
    resets: { today: dayStart(addDays(dayKey(now, zone), 1), zone), month: startOfNextMonth(now, zone), zone },
    editing: params.get("edit") === "1",
    prefillDefaults: params.get("defaults") === "1",
    saved: params.get("saved") === "1",
    caps: {
      lines: capLines(read.caps ?? [], rows),
      models: (read.models ?? [])
        .map((m) => ({ value: modelTarget(m.modelProvider, m.modelName), label: `${m.modelName} (${m.modelProvider})` }))
        .sort((a, b) => a.label.localeCompare(b.label)),
      devices: devices.map((d) => ({ value: `device:${d.id}`, label: d.name })),
      full: rows.length >= HARD_CAPS.maxPerAccount,
    },
  };
  return view;
}

/** The add-cap and remove-cap forms: checked, written for this account only, then back to the tab. */
export async function capAction({ db, ledgers }: { db: Db; ledgers: LedgerNamespace }, user: SessionUser, intent: string, form: FormData) {
  if (intent === "remove-cap") {
    const submission = parseWithZod(form, { schema: removeCapSchema });
    if (submission.status !== "success") return data<BudgetActionData>({ form: "cap", result: submission.reply() }, { status: 400 });
    // Another account's cap, or one already removed, is "not found" alike.
    if (!(await removeCap(db, user.id, submission.value.capId))) {
      return data<BudgetActionData>({ form: "cap", result: submission.reply({ formErrors: ["That cap does not exist."] }) }, { status: 404 });
    }
    throw redirect("/dashboard/budget?saved=1");
  }
  const submission = parseWithZod(form, { schema: capFormSchema, disableAutoCoercion: true });
  if (submission.status !== "success") return data<BudgetActionData>({ form: "cap", result: submission.reply() }, { status: 400 });
  const cap = capOfTarget(submission.value.target);
  const owned =
    cap?.kind === "device"
      ? (await deviceChoices(db, user.id)).some((d) => d.id === cap.deviceId)
      : cap?.kind === "model" &&
        ((await ledgerFor(ledgers, user.id).read({ now: Date.now(), models: true })).models ?? []).some(
          (m) => m.modelName === cap.model.name && m.modelProvider === cap.model.provider,
        );
  if (!cap || !owned) {
    return data<BudgetActionData>(
      { form: "cap", result: submission.reply({ fieldErrors: { target: ["Choose a model or a device from the list"] } }) },
      { status: 400 },
    );
  }
  try {
    if (!(await saveCap(db, user.id, cap, submission.value.limitUsd))) {
      const message = `You can have at most ${HARD_CAPS.maxPerAccount} caps of models and devices: remove one first.`;
      return data<BudgetActionData>({ form: "cap", result: submission.reply({ formErrors: [message] }) }, { status: 409 });
    }
  } catch (error) {
    log.error("budget_cap_save_failed", {}, error);
    return data<BudgetActionData>({ form: "cap", result: submission.reply({ formErrors: [CAP_SAVE_FAILED] }) }, { status: 503 });
  }
  throw redirect("/dashboard/budget?saved=1");
}
