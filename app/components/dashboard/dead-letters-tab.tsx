// Dashboard → Dead Letters (admins): queue messages that failed for good, newest first, each with
// what an operator needs (kind, account hash, why, attempts, when) and its two actions. Replay is
// one button; Discard asks first, through the address (?discard=<id>), so both work without
// JavaScript. `result` is the answer of the last action.
import type { ReactNode } from "react";
import { Form, useNavigation, Link } from "react-router";
import type { DeadLetterRow } from "~/lib/dead-letters/store.server";
import { ZonedTime } from "../format";
import { ActionResult, Button, Card, cx } from "../ui";

const REASONS: Record<DeadLetterRow["reason"], { label: string; style: string }> = {
  retries_exhausted: { label: "Retries used up", style: "bg-amber-50 text-amber-800" },
  malformed: { label: "Malformed", style: "bg-red-50 text-red-700" },
  account_not_found: { label: "Account gone", style: "bg-slate-100 text-slate-700" },
};

export type DeadLettersTabProps = {
  rows: DeadLetterRow[];
  total: number;
  keepDays: number;
  /** The dead letter whose discard is being confirmed. */
  confirmDiscard: string | null;
  result?: { ok: boolean; message: string };
};

export function DeadLettersTab({ rows, total, keepDays, confirmDiscard, result }: DeadLettersTabProps) {
  const busy = useNavigation().state === "submitting";
  return (
    <>
      <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">Dead letters</h1>
      <p className="mt-1 max-w-3xl text-sm text-slate-600">
        Queue messages that failed for good, kept {keepDays} days. Replay puts one back on the queue, where its effect still happens only once; Discard deletes
        it. Both are written to the audit log with your account. The account is shown as it appears in the logs.
      </p>
      <ActionResult result={result} />
      {rows.length === 0 ? (
        <Card className="mt-6 p-8 text-center text-sm text-slate-600">No dead letters. Every message went through.</Card>
      ) : (
        <>
          <p className="mt-6 text-sm text-slate-600" data-testid="dead-letters-count">
            {rows.length === total ? `${total} dead letter${total === 1 ? "" : "s"}, newest first.` : `The newest ${rows.length} of ${total} dead letters.`}
          </p>
          <ul className="mt-3 space-y-4" data-testid="dead-letters">
            {rows.map((row) => (
              <li key={row.id}>
                <DeadLetterCard row={row} confirming={confirmDiscard === row.id} busy={busy} />
              </li>
            ))}
          </ul>
        </>
      )}
    </>
  );
}

function DeadLetterCard({ row, confirming, busy }: { row: DeadLetterRow; confirming: boolean; busy: boolean }) {
  const reason = REASONS[row.reason];
  return (
    <Card className={cx("p-5", confirming && "ring-2 ring-red-300")} data-dead-letter={row.id}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <h2 className="font-mono text-sm font-semibold break-all text-slate-900">{row.kind}</h2>
        <span className={cx("rounded-full px-2.5 py-0.5 text-xs font-semibold", reason.style)}>{reason.label}</span>
      </div>
      <dl className="mt-3 grid grid-cols-2 gap-x-6 gap-y-2 text-sm lg:grid-cols-3">
        <Field term="Account">{row.account ? <span className="font-mono">{row.account}</span> : "—"}</Field>
        <Field term="Attempts">{row.attempts}</Field>
        <Field term="First seen">
          <ZonedTime ms={row.firstSeen} />
        </Field>
        <Field term="First sent">{row.sentAt ? <ZonedTime ms={row.sentAt} /> : "—"}</Field>
        <Field term="Queue" wide>
          <span className="font-mono break-words">{row.queue}</span>
        </Field>
        {row.stripeEvent ? (
          <Field term="Stripe event" wide>
            <span className="font-mono break-all">
              {row.stripeEvent.id} ({row.stripeEvent.type})
            </span>
          </Field>
        ) : null}
        {row.error ? (
          <div className="col-span-2 lg:col-span-3">
            <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">Error</dt>
            <dd className="mt-0.5 font-mono text-xs break-words text-slate-800">{row.error}</dd>
          </div>
        ) : null}
      </dl>
      {confirming ? <DiscardConfirmation id={row.id} busy={busy} /> : <Actions row={row} busy={busy} />}
    </Card>
  );
}

function Field({ term, children, wide = false }: { term: string; children: ReactNode; wide?: boolean }) {
  return (
    <div className={cx("min-w-0", wide && "col-span-2 lg:col-span-1")}>
      <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">{term}</dt>
      <dd className="mt-0.5 text-slate-800">{children}</dd>
    </div>
  );
}

function Actions({ row, busy }: { row: DeadLetterRow; busy: boolean }) {
  const whyNot = row.replay.replayable ? null : row.replay.why;
  const noteId = `replay-note-${row.id}`;
  return (
    <div className="mt-4 flex flex-wrap items-center gap-3">
      <Form method="post">
        <input type="hidden" name="intent" value="replay" />
        <input type="hidden" name="id" value={row.id} />
        <Button type="submit" size="sm" disabled={busy || whyNot !== null} aria-describedby={whyNot ? noteId : undefined}>
          Replay
        </Button>
      </Form>
      <Link
        to={`?discard=${encodeURIComponent(row.id)}`}
        preventScrollReset
        className="rounded-lg px-3 py-1.5 text-sm font-medium text-red-700 hover:bg-red-50"
        aria-label={`Discard the ${row.kind} dead letter`}
      >
        Discard
      </Link>
      {whyNot ? (
        <p id={noteId} className="basis-full text-xs text-slate-600">
          Cannot be replayed: {whyNot}
        </p>
      ) : null}
    </div>
  );
}

function DiscardConfirmation({ id, busy }: { id: string; busy: boolean }) {
  return (
    <fieldset className="mt-4 rounded-lg border border-red-200 bg-red-50 p-4">
      {/* Floated: a legend inside the box rather than on its border. */}
      <legend className="float-left w-full text-sm font-medium text-red-800">Discard this dead letter for good? It cannot be replayed afterwards.</legend>
      <div className="clear-left flex flex-wrap items-center gap-3 pt-3">
        <Form method="post" action="?">
          <input type="hidden" name="intent" value="discard" />
          <input type="hidden" name="id" value={id} />
          <Button type="submit" size="sm" variant="danger" disabled={busy}>
            Discard
          </Button>
        </Form>
        <Link to="?" preventScrollReset className="rounded-lg px-3 py-1.5 text-sm font-medium text-slate-700 hover:bg-white">
          Cancel
        </Link>
      </div>
    </fieldset>
  );
}
