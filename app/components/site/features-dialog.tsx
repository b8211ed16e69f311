// The Features dialog's body: tabs as links (?tab=…) so it works without JavaScript, the current
// tab's cards, the key statistics (the Security Score with what it measures), and Get Started,
// which closes the dialog.
import { useLocation, Link } from "react-router";
import { FEATURE_TABS, KEY_STATISTICS, SECURITY_SCORE_NOTE } from "~/lib/site/features";
import { ModalCloseLink, withParams } from "../modal";
import { useSiteData } from "./site-data";
import { buttonClass, cx } from "../ui";

export function FeaturesDialogBody({ closeTo }: { closeTo: string }) {
  const { pathname, search } = useLocation();
  const asked = new URLSearchParams(search).get("tab");
  const tab = FEATURE_TABS.find((t) => t.id === asked) ?? FEATURE_TABS[0]!;
  const score = useSiteData()?.securityScore;
  const statistics = [...KEY_STATISTICS, ...(score === undefined ? [] : [{ value: `${score}/100`, label: "Security Score" }])];
  return (
    <div>
      {/* Wrapped, not scrolled: every area in sight, none cut off at the dialog's edge. */}
      <nav className="flex flex-wrap gap-1.5" aria-label="Feature areas">
        {FEATURE_TABS.map((t) => (
          <Link
            key={t.id}
            to={withParams(pathname, search, { tab: t.id })}
            replace
            preventScrollReset
            aria-current={t.id === tab.id ? "page" : undefined}
            className={cx(
              "whitespace-nowrap rounded-full px-3 py-1.5 text-sm font-medium",
              t.id === tab.id ? "bg-brand-600 text-white" : "bg-slate-100 text-slate-700 hover:bg-slate-200",
            )}
          >
            {t.label}
          </Link>
        ))}
      </nav>
      {/* Two columns: a tab of three cards gives its last the whole row, leaving no empty fourth place. */}
      <ul className="mt-5 grid gap-3 sm:grid-cols-2" data-testid="feature-cards">
        {tab.cards.map((c) => (
          <li key={c.title} className="rounded-xl border border-slate-200 p-4 sm:last:odd:col-span-2">
            <h3 className="font-semibold text-slate-900">{c.title}</h3>
            <p className="mt-1 text-sm leading-6 text-slate-600">{c.text}</p>
          </li>
        ))}
      </ul>
      <section aria-labelledby="key-stats" className="mt-6 rounded-xl bg-brand-50 p-4">
        <h3 id="key-stats" className="text-sm font-semibold text-brand-900">
          Key Statistics
        </h3>
        <dl className="mt-3 grid grid-cols-2 gap-3 sm:grid-cols-4">
          {statistics.map((s) => (
            <div key={s.label} className="flex flex-col-reverse">
              <dt className="text-xs text-slate-600">{s.label}</dt>
              <dd className="text-2xl font-bold text-slate-900">{s.value}</dd>
            </div>
          ))}
        </dl>
        {score === undefined ? null : (
          <p className="mt-3 text-xs leading-5 text-slate-600" data-testid="security-score-note">
            {SECURITY_SCORE_NOTE}
          </p>
        )}
      </section>
      <div className="mt-6 flex justify-end">
        <ModalCloseLink to={closeTo} className={buttonClass("primary")}>
          Get Started
        </ModalCloseLink>
      </div>
    </div>
  );
}
