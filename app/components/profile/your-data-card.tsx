// The profile's "Your data": "Download my data" as one JSON file. The button posts a plain form to
// /dashboard/profile/export (it works without JavaScript); the file is prepared in the background
// and its link, shown here, works for its owner for a limited time. While one is being prepared
// the card asks every DATA_EXPORT.statusPollMs whether it is ready and then reads the page again, so
// the link shows without a reload (issue 46); without JavaScript a Reload link does it. Its owner
// is also mailed when it is ready.
import { useEffect } from "react";
import { useFetcher, useRevalidator, useSearchParams } from "react-router";
import type { ExportView } from "~/lib/account/export.server";
import { EXPORT_MESSAGES } from "~/lib/account/messages";
import { DATA_EXPORT } from "~/lib/constants";
import { Alert, buttonClass, Card, Spinner, useHydrated } from "../ui";
import { useFormat } from "~/components/format";

const STATUS_URL = "/dashboard/profile/export";

/**
 * While an export shown is pending: its status every DATA_EXPORT.statusPollMs (a small JSON
 * answer, not the whole profile), and once one of them is no longer pending, the page's data once.
 * Stops by itself: the page's data then has none pending.
 */
function useExportPolling(exports: ExportView[]) {
  const status = useFetcher<{ exports: ExportView[] }>();
  const { revalidate, state } = useRevalidator();
  const pending = exports.filter((e) => e.status === "pending").map((e) => e.id);
  const waitingFor = pending.join(",");
  const { load } = status;
  useEffect(() => {
    if (!waitingFor) return;
    const timer = window.setInterval(() => load(STATUS_URL), DATA_EXPORT.statusPollMs);
    return () => window.clearInterval(timer);
  }, [waitingFor, load]);
  const settled = status.data?.exports?.some((e) => waitingFor.split(",").includes(e.id) && e.status !== "pending") ?? false;
  useEffect(() => {
    if (settled && state === "idle") void revalidate();
  }, [settled, state, revalidate]);
}

const NOTICES = {
  requested: { tone: "success", text: EXPORT_MESSAGES.requested },
  ready: { tone: "success", text: EXPORT_MESSAGES.ready },
  "too-many": { tone: "error", text: EXPORT_MESSAGES.tooMany },
} as const;

/**
 * The answer to the last request. After "Download my data" the address keeps ?export=requested, so
 * the notice follows the newest export: "being prepared" while it is, "ready" once it is (a
 * reload, or an export done before the page answered), nothing when it failed (its row says so).
 */
function Notice({ newest }: { newest: ExportView | undefined }) {
  const [params] = useSearchParams();
  const outcome = params.get("export");
  let notice: (typeof NOTICES)[keyof typeof NOTICES] | null = null;
  if (outcome === "too-many") notice = NOTICES["too-many"];
  else if (outcome === "requested") {
    if (!newest || newest.status === "pending") notice = NOTICES.requested;
    else if (newest.status === "ready") notice = NOTICES.ready;
  }
  return notice ? (
    <Alert tone={notice.tone} className="mt-4">
      {notice.text}
    </Alert>
  ) : null;
}

function ExportRow({ item, live }: { item: ExportView; live: boolean }) {
  const f = useFormat();
  const asked = `Asked for ${f.date(item.createdAt)}`;
  if (item.status === "ready") {
    return (
      <li className="flex flex-col gap-2 py-3 sm:flex-row sm:items-center sm:justify-between">
        <span className="text-sm text-slate-700">
          {asked} · ready{item.expiresAt ? `, link works until ${f.dateTime(item.expiresAt)}` : ""}
        </span>
        <a href={`/dashboard/profile/export/${item.id}`} download className={buttonClass("secondary", "sm", "w-full sm:w-auto")}>
          Download JSON
        </a>
      </li>
    );
  }
  const label = { pending: "being prepared", failed: "could not be prepared: ask again", expired: "link expired" }[item.status];
  return (
    <li className="py-3 text-sm text-slate-700">
      {asked} · {label}
      {item.status === "pending" && live ? (
        <span className="ml-2 inline-flex items-center gap-1.5 text-slate-500">
          <Spinner className="h-3.5 w-3.5" label="Checking" />
          the link shows here when it is ready
        </span>
      ) : null}
      {item.status === "pending" && !live ? (
        <>
          {" "}
          <a href="/dashboard/profile#your-data" className="font-medium text-brand-700 underline">
            Reload
          </a>
        </>
      ) : null}
    </li>
  );
}

export function YourDataCard({ exports }: { exports: ExportView[] }) {
  const live = useHydrated();
  useExportPolling(exports);
  return (
    <section aria-labelledby="your-data-title" id="your-data">
      <Card className="p-6">
        <h2 id="your-data-title" className="text-lg font-semibold text-slate-900">
          Your data
        </h2>
        <p className="mt-1 text-sm text-slate-600">
          Download everything we hold about you as one JSON file: account, profile, sessions and devices, usage (including archived months), budgets, downloads,
          subscription and invoices, early access, support messages and security log entries. It takes a minute or two to prepare; the link works for{" "}
          {EXPORT_MESSAGES.linkLife}. {EXPORT_MESSAGES.allowed}
        </p>
        <Notice newest={exports[0]} />
        {exports.length > 0 ? (
          <ul className="mt-4 divide-y divide-slate-100" aria-label="Your data exports">
            {exports.map((item) => (
              <ExportRow key={item.id} item={item} live={live} />
            ))}
          </ul>
        ) : null}
        <form method="post" action="/dashboard/profile/export" className="mt-4 border-t border-slate-100 pt-4">
          <button type="submit" className={buttonClass("secondary", "sm", "w-full sm:w-auto")}>
            Download my data
          </button>
        </form>
      </Card>
    </section>
  );
}
