// The waitlist as admins see it: who is waiting (by priority, then who came first) or everyone
// (newest first), searchable, with a grant button per waiting entry and "grant the top N".
import { getFormProps, getInputProps, type SubmissionResult, useForm } from "@conform-to/react";
import { Form, useNavigation, Link } from "react-router";
import type { Paged, WaitlistRow } from "~/lib/early-access/admin.server";
import { ZonedTime } from "../format";
import { Field } from "../forms";
import { Button, Card, cx } from "../ui";
import { type AdminSearch, adminHref, KeepFields, Pager } from "./admin-shared";

const VIEWS = [
  { view: "waiting" as const, label: "Waiting" },
  { view: "all" as const, label: "All entries" },
];

function WaitlistViews({ search }: { search: AdminSearch }) {
  return (
    <nav className="flex rounded-lg border border-slate-200 p-0.5 text-sm" aria-label="Waitlist view">
      {VIEWS.map((v) => (
        <Link
          key={v.view}
          to={adminHref(search, { view: v.view, page: 1 })}
          preventScrollReset
          aria-current={search.view === v.view ? "page" : undefined}
          className={cx("rounded-md px-3 py-1.5 font-medium", search.view === v.view ? "bg-brand-50 text-brand-700" : "text-slate-600 hover:bg-slate-100")}
        >
          {v.label}
        </Link>
      ))}
    </nav>
  );
}

function WaitlistSearch({ search }: { search: AdminSearch }) {
  return (
    <Form method="get" preventScrollReset className="flex flex-wrap items-end gap-2" role="search" aria-label="Waitlist">
      <KeepFields search={search} names={["view", "kstate", "kq", "kpage"]} />
      <Field
        labelProps={{ children: "Search" }}
        inputProps={{
          id: "waitlist-q",
          name: "q",
          type: "search",
          defaultValue: search.q,
          placeholder: "E-mail, name or company",
          className: "w-64 max-w-full",
        }}
      />
      <Button type="submit" variant="secondary">
        Search
      </Button>
      {search.q ? (
        <Link to={adminHref(search, { q: "", page: 1 })} preventScrollReset className="px-2 py-2.5 text-sm font-medium text-brand-700 hover:underline">
          Clear
        </Link>
      ) : null}
    </Form>
  );
}

function GrantTopForm({ bulkMax, lastResult, busy }: { bulkMax: number; lastResult?: SubmissionResult<string[]>; busy: boolean }) {
  // Checked on the server; the browser's own range check (noValidate off) still answers first.
  const [form, fields] = useForm({ id: "grant-top", lastResult, defaultValue: { count: "10" } });
  return (
    <Form method="post" {...getFormProps(form)} noValidate={false} className="flex flex-wrap items-end gap-2">
      <input type="hidden" name="intent" value="grant-top" />
      <Field
        labelProps={{ children: "Grant the top" }}
        inputProps={{ ...getInputProps(fields.count, { type: "number" }), min: 1, max: bulkMax, required: true, className: "w-24" }}
        errors={fields.count.errors}
      />
      <Button type="submit" disabled={busy}>
        Grant the top N
      </Button>
    </Form>
  );
}

function WaitlistTableRow({ row, busy }: { row: WaitlistRow; busy: boolean }) {
  return (
    <tr className="align-middle">
      <td className="py-2.5 pr-4 text-slate-900">{[row.firstName, row.lastName].filter(Boolean).join(" ") || "—"}</td>
      <td className="py-2.5 pr-4 whitespace-nowrap text-slate-700">{row.email}</td>
      <td className="py-2.5 pr-4 text-slate-700">{row.company || "—"}</td>
      <td className="py-2.5 pr-4 tabular-nums text-slate-700">{row.priorityScore}</td>
      <td className="py-2.5 pr-4 whitespace-nowrap text-slate-700">
        <ZonedTime ms={row.createdAt} date />
      </td>
      <td className="py-2.5">
        {row.granted ? (
          <span className="whitespace-nowrap text-emerald-700">Granted {row.grantedAt ? <ZonedTime ms={row.grantedAt} date /> : ""}</span>
        ) : (
          <Form method="post">
            <input type="hidden" name="intent" value="grant" />
            <input type="hidden" name="waitlistId" value={row.id} />
            <Button type="submit" size="sm" disabled={busy} className="whitespace-nowrap">
              Grant early access
            </Button>
          </Form>
        )}
      </td>
    </tr>
  );
}

export function AdminWaitlist({
  search,
  waitlist,
  bulkMax,
  grantTop,
}: {
  search: AdminSearch;
  waitlist: Paged<WaitlistRow>;
  bulkMax: number;
  /** The server's refusal of "grant the top N" (routes/dashboard/admin-early-access.tsx), shown beside its field. */
  grantTop?: SubmissionResult<string[]>;
}) {
  const busy = useNavigation().state === "submitting";
  return (
    <Card className="p-6">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h2 className="text-lg font-semibold text-slate-900">Waitlist</h2>
          <p className="mt-1 text-sm text-slate-600">
            {search.view === "waiting" ? "Not yet granted: highest priority first, then who joined first." : "Every entry, newest first."}
          </p>
        </div>
        <WaitlistViews search={search} />
      </div>

      <div className="mt-5 flex flex-col gap-4 lg:flex-row lg:items-end lg:justify-between">
        <WaitlistSearch search={search} />
        <GrantTopForm bulkMax={bulkMax} lastResult={grantTop} busy={busy} />
      </div>

      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region takes focus so a keyboard can scroll it (axe scrollable-region-focusable) */}
      <section className="relative mt-5 overflow-x-auto" aria-label="Waitlist table" tabIndex={0}>
        <table className="w-full min-w-[44rem] text-left text-sm" data-testid="waitlist-table">
          <thead className="border-b border-slate-200 text-xs uppercase tracking-wide text-slate-500">
            <tr>
              <th className="py-2 pr-4 font-medium">Name</th>
              <th className="py-2 pr-4 font-medium">E-mail</th>
              <th className="py-2 pr-4 font-medium">Company</th>
              <th className="py-2 pr-4 font-medium">Priority</th>
              <th className="py-2 pr-4 font-medium">Joined</th>
              <th className="py-2 font-medium">Early access</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {waitlist.rows.map((row) => (
              <WaitlistTableRow key={row.id} row={row} busy={busy} />
            ))}
          </tbody>
        </table>
        {waitlist.rows.length === 0 ? (
          <p className="py-6 text-center text-sm text-slate-500">
            {search.q ? "No entry matches this search." : search.view === "waiting" ? "Nobody is waiting." : "The waitlist is empty."}
          </p>
        ) : null}
      </section>
      <Pager
        label="Waitlist pages"
        page={waitlist.page}
        pageCount={waitlist.pageCount}
        total={waitlist.total}
        hrefFor={(page) => adminHref(search, { page })}
      />
    </Card>
  );
}
