// One report in full (?report=<id>): a URL dialog (components/modal.tsx), so it opens from a link,
// renders on the server and works without JavaScript; closing goes back to the same page of the log.
// The metadata is the app's JSON as sent, pretty-printed as text (React escapes it).
import type { ReactNode } from "react";
import type { LogReport } from "~/lib/usage/request-log.server";
import { useFormat } from "../../format";
import { UrlModal } from "../../modal";
import { StatusBadge } from "./table";

function Item({ label, children, wide }: { label: string; children: ReactNode; wide?: boolean }) {
  return (
    <div className={wide ? "sm:col-span-2" : undefined}>
      <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">{label}</dt>
      <dd className="mt-1 break-words text-sm text-slate-900">{children}</dd>
    </div>
  );
}

const none = <span className="text-slate-500">None</span>;

export function ReportDialog({ report: r, closeTo }: { report: LogReport; closeTo: string }) {
  const f = useFormat();
  const at = (ms: number) => `${f.date(ms)}, ${f.time(ms)}`;
  const fallback = r.kind === "fallback";
  return (
    <UrlModal closeTo={closeTo} labelledBy="report-title" wide>
      <div className="pr-8">
        <h2 id="report-title" className="break-words text-lg font-semibold text-slate-900">
          {r.modelName}
        </h2>
        <p className="mt-1 flex flex-wrap items-center gap-2 text-sm text-slate-600">
          <span>{r.modelProvider}</span>
          <StatusBadge success={r.success} />
        </p>
      </div>
      {r.errorMessage ? (
        <div className="mt-5 rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-800" data-testid="report-error">
          <p className="font-semibold">Error message</p>
          <p className="mt-1 whitespace-pre-wrap break-words">{r.errorMessage}</p>
        </div>
      ) : null}
      <dl className="mt-5 grid gap-4 sm:grid-cols-2" data-testid="report-details">
        <Item label="Occurred">
          <time dateTime={new Date(r.occurredAt).toISOString()}>{at(r.occurredAt)}</time> <span className="text-slate-500">({f.timeZone})</span>
        </Item>
        <Item label="Received">
          <time dateTime={new Date(r.receivedAt).toISOString()}>{at(r.receivedAt)}</time>
        </Item>
        <Item label="Request type">{r.requestType}</Item>
        <Item label="Device">{r.device ?? <span className="text-slate-500">No device key</span>}</Item>
        {fallback ? (
          <Item label="Requests">{`${f.integer(r.requests)} (${f.integer(r.successCount)} succeeded, ${f.integer(r.errorCount)} failed)`}</Item>
        ) : (
          <Item label="Tokens">{`${f.integer(r.tokensInput)} in, ${f.integer(r.tokensOutput)} out, ${f.integer(r.tokens)} in all`}</Item>
        )}
        {fallback ? <Item label="Tokens">{f.integer(r.tokens)}</Item> : null}
        <Item label="Cost">{f.usdExact(r.costMicros / 1e6)}</Item>
        <Item label="Duration">{f.ms(r.durationMs)}</Item>
        <Item label="Conversation">{r.conversationId ?? none}</Item>
        <Item label="App version">{r.appVersion ?? none}</Item>
        <Item label="App instance">{r.appInstanceId ?? none}</Item>
        <Item label="Report id" wide>
          <code className="text-xs">{r.id}</code>
        </Item>
      </dl>
      <h3 className="mt-5 text-sm font-semibold text-slate-900">Metadata</h3>
      {r.metadata === null || r.metadata === undefined ? (
        <p className="mt-1 text-sm text-slate-500">None sent.</p>
      ) : (
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region takes focus so a keyboard can scroll it (axe scrollable-region-focusable)
        <section className="mt-2 max-h-64 overflow-auto rounded-lg bg-slate-50 p-3" aria-label="Metadata" tabIndex={0}>
          <pre className="text-xs text-slate-800" data-testid="report-metadata">
            {JSON.stringify(r.metadata, null, 2)}
          </pre>
        </section>
      )}
    </UrlModal>
  );
}
