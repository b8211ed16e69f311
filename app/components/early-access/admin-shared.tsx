// Pieces the early-access admin lists share: the page state in the URL and the pager.
import { Link } from "react-router";
import type { KeyState, WaitlistView } from "~/lib/early-access/admin.server";
import { buttonClass, cx } from "../ui";

/** Everything the page shows is chosen by its address, so every view has a link and works without JavaScript. */
export type AdminSearch = { view: WaitlistView; q: string; page: number; kstate: KeyState | "all"; kq: string; kpage: number };

const DEFAULTS: AdminSearch = { view: "waiting", q: "", page: 1, kstate: "all", kq: "", kpage: 1 };

export function adminHref(search: AdminSearch, change: Partial<AdminSearch>): string {
  const next = { ...search, ...change };
  const params = new URLSearchParams();
  for (const name of Object.keys(DEFAULTS) as Array<keyof AdminSearch>) {
    if (next[name] !== DEFAULTS[name]) params.set(name, String(next[name]));
  }
  const query = params.toString();
  return `/dashboard/admin/early-access${query ? `?${query}` : ""}`;
}

/** Hidden fields that keep the other list's state when one list's search form is sent. */
export function KeepFields({ search, names }: { search: AdminSearch; names: Array<keyof AdminSearch> }) {
  return (
    <>
      {names
        .filter((name) => search[name] !== DEFAULTS[name])
        .map((name) => (
          <input key={name} type="hidden" name={name} value={String(search[name])} />
        ))}
    </>
  );
}

export function Pager({
  label,
  page,
  pageCount,
  total,
  hrefFor,
}: {
  label: string;
  page: number;
  pageCount: number;
  total: number;
  hrefFor: (page: number) => string;
}) {
  if (pageCount <= 1) return <p className="mt-4 text-sm text-slate-500">{total === 1 ? "1 entry" : `${total} entries`}</p>;
  const link = (to: number, text: string, rel: string) =>
    to < 1 || to > pageCount ? (
      <span className={cx(buttonClass("secondary", "sm"), "pointer-events-none opacity-50")} aria-disabled="true">
        {text}
      </span>
    ) : (
      <Link to={hrefFor(to)} rel={rel} preventScrollReset className={buttonClass("secondary", "sm")}>
        {text}
      </Link>
    );
  return (
    <nav aria-label={label} className="mt-4 flex flex-wrap items-center justify-between gap-3 text-sm text-slate-600">
      <span>{`Page ${page} of ${pageCount} · ${total} entries`}</span>
      <span className="flex gap-2">
        {link(page - 1, "Previous", "prev")}
        {link(page + 1, "Next", "next")}
      </span>
    </nav>
  );
}
