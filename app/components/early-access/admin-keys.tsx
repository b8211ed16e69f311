// Every activation key with its state (unused, used by whom and when, expired, revoked), masked:
// only the last four characters are known after creation. Unused keys can be revoked; new
// unassigned keys come back as a CSV download (the only time their plaintext exists).
import { Form, useNavigation, Link } from "react-router";
import type { KeyRow, KeyState, Paged } from "~/lib/early-access/admin.server";
import { maskedActivationKey } from "~/lib/early-access/keys";
import { ZonedTime } from "../format";
import { Field, SelectField } from "../forms";
import { Button, Card, cx } from "../ui";
import { type AdminSearch, adminHref, KeepFields, Pager } from "./admin-shared";

const STATE_STYLE: Record<KeyState, string> = {
  unused: "bg-brand-50 text-brand-700",
  used: "bg-emerald-50 text-emerald-700",
  expired: "bg-slate-100 text-slate-600",
  revoked: "bg-red-50 text-red-700",
};

function KeyDetails({ row }: { row: KeyRow }) {
  switch (row.state) {
    case "used":
      return (
        <>
          by <span className="break-all text-slate-900">{row.usedBy ?? "a deleted account"}</span>
          {row.usedAt ? (
            <>
              , <ZonedTime ms={row.usedAt} />
            </>
          ) : null}
        </>
      );
    case "revoked":
      return row.revokedAt ? (
        <>
          revoked <ZonedTime ms={row.revokedAt} date />
        </>
      ) : (
        <>revoked</>
      );
    case "expired":
      return (
        <>
          expired <ZonedTime ms={row.expiresAt} date />
        </>
      );
    case "unused":
      return (
        <>
          expires <ZonedTime ms={row.expiresAt} date />
        </>
      );
  }
}

/** A plain form post: the answer is the CSV file, so the keys are never kept anywhere. */
function CreateKeysForm({ bulkMax }: { bulkMax: number }) {
  return (
    <form method="post" action="/dashboard/admin/early-access/keys.csv" className="flex flex-wrap items-end gap-2">
      <Field
        labelProps={{ children: "Unassigned keys" }}
        inputProps={{ id: "unassigned-count", name: "count", type: "number", min: 1, max: bulkMax, defaultValue: 10, required: true, className: "w-24" }}
      />
      <Button type="submit" variant="secondary">
        Create N keys (CSV)
      </Button>
    </form>
  );
}

function KeySearch({ search }: { search: AdminSearch }) {
  return (
    <Form method="get" preventScrollReset className="mt-5 flex flex-wrap items-end gap-2" role="search" aria-label="Keys">
      <KeepFields search={search} names={["view", "q", "page"]} />
      <Field
        labelProps={{ children: "Search" }}
        inputProps={{
          id: "keys-q",
          name: "kq",
          type: "search",
          defaultValue: search.kq,
          placeholder: "E-mail or last 4 characters",
          className: "w-64 max-w-full",
        }}
      />
      <SelectField labelProps={{ children: "State" }} selectProps={{ id: "keys-state", name: "kstate", defaultValue: search.kstate, className: "w-36" }}>
        {["all", "unused", "used", "expired", "revoked"].map((s) => (
          <option key={s} value={s}>
            {s === "all" ? "All" : s[0]!.toUpperCase() + s.slice(1)}
          </option>
        ))}
      </SelectField>
      <Button type="submit" variant="secondary">
        Search
      </Button>
      {search.kq || search.kstate !== "all" ? (
        <Link
          to={adminHref(search, { kq: "", kstate: "all", kpage: 1 })}
          preventScrollReset
          className="px-2 py-2.5 text-sm font-medium text-brand-700 hover:underline"
        >
          Clear
        </Link>
      ) : null}
    </Form>
  );
}

function KeyTableRow({ row, busy }: { row: KeyRow; busy: boolean }) {
  return (
    <tr className="align-middle">
      <td className="py-2.5 pr-4 font-mono whitespace-nowrap text-slate-900">{maskedActivationKey(row.last4)}</td>
      <td className="py-2.5 pr-4">
        <span className={cx("rounded-full px-2 py-0.5 text-xs font-semibold", STATE_STYLE[row.state])}>{row.state}</span>
      </td>
      <td className="py-2.5 pr-4 whitespace-nowrap text-slate-600">
        <KeyDetails row={row} />
      </td>
      <td className="py-2.5 pr-4 whitespace-nowrap text-slate-700">{row.sentTo ?? "—"}</td>
      <td className="py-2.5 pr-4 whitespace-nowrap text-slate-700">
        <ZonedTime ms={row.createdAt} date />
      </td>
      <td className="py-2.5 text-right">
        {row.state === "unused" ? (
          <Form method="post">
            <input type="hidden" name="intent" value="revoke" />
            <input type="hidden" name="keyId" value={row.id} />
            <Button type="submit" size="sm" variant="secondary" disabled={busy}>
              Revoke
            </Button>
          </Form>
        ) : null}
      </td>
    </tr>
  );
}

export function AdminKeys({ search, keys, bulkMax }: { search: AdminSearch; keys: Paged<KeyRow>; bulkMax: number }) {
  const busy = useNavigation().state === "submitting";
  return (
    <Card className="p-6">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h2 className="text-lg font-semibold text-slate-900">Activation keys</h2>
          <p className="mt-1 text-sm text-slate-600">Newest first. Keys are stored hashed: only their last four characters are shown.</p>
        </div>
        <CreateKeysForm bulkMax={bulkMax} />
      </div>
      <p className="mt-2 text-xs text-slate-500">The downloaded file is the only copy of the new keys: keep it safe.</p>

      <KeySearch search={search} />

      {/* relative: the screen-reader-only header is positioned, and must be clipped with the table. */}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region takes focus so a keyboard can scroll it (axe scrollable-region-focusable) */}
      <section className="relative mt-5 overflow-x-auto" aria-label="Keys table" tabIndex={0}>
        <table className="w-full min-w-[44rem] text-left text-sm" data-testid="keys-table">
          <thead className="border-b border-slate-200 text-xs uppercase tracking-wide text-slate-500">
            <tr>
              <th className="py-2 pr-4 font-medium">Key</th>
              <th className="py-2 pr-4 font-medium">State</th>
              <th className="py-2 pr-4 font-medium">Details</th>
              <th className="py-2 pr-4 font-medium">Sent to</th>
              <th className="py-2 pr-4 font-medium">Created</th>
              <th className="py-2 font-medium">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {keys.rows.map((row) => (
              <KeyTableRow key={row.id} row={row} busy={busy} />
            ))}
          </tbody>
        </table>
        {keys.rows.length === 0 ? (
          <p className="py-6 text-center text-sm text-slate-500">{search.kq || search.kstate !== "all" ? "No key matches." : "No key has been created yet."}</p>
        ) : null}
      </section>
      <Pager label="Key pages" page={keys.page} pageCount={keys.pageCount} total={keys.total} hrefFor={(kpage) => adminHref(search, { kpage })} />
    </Card>
  );
}
