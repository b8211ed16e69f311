import { SiteFooter } from "~/components/site-footer";
import { cx } from "~/components/ui";
import { CHANGELOG, type ChangelogPost } from "~/lib/changelog";
import { pageMeta } from "~/lib/site/meta";
import { useFormat } from "~/components/format";

export const meta = () => pageMeta("Changelog | Modelify");

const BADGES: Record<ChangelogPost["type"], { label: string; className: string }> = {
  new: { label: "New", className: "bg-brand-50 text-brand-700" },
  feature: { label: "Feature", className: "bg-emerald-50 text-emerald-700" },
  improvement: { label: "Improvement", className: "bg-sky-50 text-sky-700" },
  bugfix: { label: "Bug fix", className: "bg-amber-50 text-amber-800" },
};

export default function Changelog() {
  const f = useFormat();
  return (
    <>
      <main id="main" className="bg-gradient-to-b from-brand-50 via-white to-white px-4 pb-20 pt-28 sm:px-6">
        <div className="mx-auto max-w-3xl">
          <h1 className="text-4xl font-extrabold tracking-tight text-slate-900">Changelog</h1>
          <p className="mt-3 text-lg text-slate-600">What is new in the Modelify desktop app.</p>
          <ol className="mt-12 space-y-8">
            {CHANGELOG.map((post) => (
              <li key={post.id}>
                <article className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
                  <div className="flex flex-wrap items-center gap-3 text-sm">
                    <span className={cx("rounded-full px-3 py-1 text-xs font-semibold", BADGES[post.type].className)}>{BADGES[post.type].label}</span>
                    <span className="font-semibold text-slate-900">{post.version}</span>
                    {/* A calendar date, the same day everywhere: written as its UTC day. */}
                    <time className="text-slate-500" dateTime={post.date}>
                      {f.utc().date(Date.parse(post.date))}
                    </time>
                  </div>
                  <h2 className="mt-4 text-xl font-semibold text-slate-900">{post.title}</h2>
                  <p className="mt-2 text-slate-600">{post.description}</p>
                  <details className="group mt-4">
                    <summary className="cursor-pointer list-none rounded text-sm font-semibold text-brand-700 hover:text-brand-800">
                      <span className="group-open:hidden">Read More</span>
                      <span className="hidden group-open:inline">Show Less</span>
                    </summary>
                    <h3 className="mt-4 text-sm font-semibold text-slate-900">Key highlights</h3>
                    <ul className="mt-2 list-disc space-y-1 pl-5 text-sm text-slate-600">
                      {post.highlights.map((h) => (
                        <li key={h}>{h}</li>
                      ))}
                    </ul>
                    <p className="mt-4 text-xs text-slate-500">By {post.author}</p>
                  </details>
                </article>
              </li>
            ))}
          </ol>
          <p className="mt-10 text-center text-sm text-slate-500">You are all caught up: that is every release so far.</p>
        </div>
      </main>
      <SiteFooter />
    </>
  );
}
