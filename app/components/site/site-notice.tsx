// A notice at the top of the home page for someone another page sent there (lib/site/notices.ts):
// its words come from the server's list. Dismissing it is a link to the same page without the
// code, so it works without JavaScript and does not come back on a reload.
import { Link } from "react-router";
import type { SiteNotice } from "~/lib/site/notices";
import { CheckIcon } from "../ui";

export function SiteNoticeBanner({ notice, dismissTo }: { notice: SiteNotice; dismissTo: string }) {
  return (
    <div
      role="status"
      aria-labelledby="site-notice-title"
      className="mx-auto mb-8 flex max-w-2xl items-start gap-3 rounded-xl border border-emerald-200 bg-emerald-50 p-4 text-left text-emerald-900 shadow-sm"
      data-testid="site-notice"
    >
      <CheckIcon className="mt-0.5 h-5 w-5 shrink-0 text-emerald-700" bold />
      <div className="min-w-0 flex-1">
        <h2 id="site-notice-title" className="font-semibold">
          {notice.title}
        </h2>
        <p className="mt-1 text-sm">{notice.text}</p>
      </div>
      <Link to={dismissTo} replace preventScrollReset aria-label="Dismiss" className="shrink-0 rounded-md p-1 text-emerald-800 hover:bg-emerald-100">
        <svg viewBox="0 0 24 24" className="h-5 w-5" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
          <path d="M6 6l12 12M18 6 6 18" strokeLinecap="round" />
        </svg>
      </Link>
    </div>
  );
}
