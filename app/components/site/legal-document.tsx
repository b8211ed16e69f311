// A documentation or policy text, with tabs between the four. On /legal/:doc the tabs are pages;
// in the dialog (?modal=docs&doc=…) they change the parameter. Links either way, so both work
// without JavaScript.
import { Link } from "react-router";
import { LEGAL, LEGAL_DOCS, type LegalDocId } from "~/lib/site/legal";
import { cx, segmentClass } from "../ui";

export function LegalTabs({ current, hrefFor }: { current: LegalDocId; hrefFor: (doc: LegalDocId) => string }) {
  return (
    <nav className="flex flex-wrap gap-1 rounded-lg bg-slate-100 p-1" aria-label="Documents">
      {LEGAL_DOCS.map((doc) => (
        <Link
          key={doc}
          to={hrefFor(doc)}
          replace
          preventScrollReset
          aria-current={doc === current ? "page" : undefined}
          className={segmentClass(doc === current)}
        >
          {LEGAL[doc].tab}
        </Link>
      ))}
    </nav>
  );
}

export function LegalDocument({ doc, headingLevel = 2 }: { doc: LegalDocId; headingLevel?: 1 | 2 }) {
  const d = LEGAL[doc];
  const Title = headingLevel === 1 ? "h1" : "h2";
  const Section = headingLevel === 1 ? "h2" : "h3";
  return (
    <article className="text-sm leading-6 text-slate-700" data-testid={`legal-${doc}`}>
      <Title className={cx("font-bold tracking-tight text-slate-900", headingLevel === 1 ? "text-3xl sm:text-4xl" : "text-xl")}>{d.title}</Title>
      <p className="mt-1 text-xs text-slate-500">
        Last updated {d.updated}
        {d.version ? ` · Version ${d.version}` : ""}
      </p>
      <p className="mt-4">{d.intro}</p>
      {d.more ? (
        <p className="mt-2">
          <Link to={d.more.href} className="font-medium text-brand-700 underline">
            {d.more.text}
          </Link>
        </p>
      ) : null}
      {d.sections.map((s) => (
        <section key={s.heading} className="mt-6">
          <Section className="font-semibold text-slate-900">{s.heading}</Section>
          {s.paragraphs.map((p) => (
            <p key={p} className="mt-2">
              {p}
            </p>
          ))}
          {s.list ? (
            <ul className="mt-2 list-disc space-y-1 pl-5">
              {s.list.map((item) => (
                <li key={item}>{item}</li>
              ))}
            </ul>
          ) : null}
        </section>
      ))}
    </article>
  );
}
