// The FAQ (#faq): an accordion with one answer open at a time, the first open at first. Native
// <details name="faq"> elements make it exclusive without JavaScript; nothing here needs any.
import { Link } from "react-router";
import { FAQ } from "~/lib/site/faq";
import { ChevronDownIcon } from "./ui";

export function FaqSection() {
  return (
    <section id="faq" aria-labelledby="faq-title" className="scroll-mt-20 border-t border-slate-100 bg-white py-20 sm:py-24">
      <FaqContent />
    </section>
  );
}

/** The FAQ's heading and answers. */
function FaqContent() {
  return (
    <div className="mx-auto max-w-3xl px-4 sm:px-6">
      <h2 id="faq-title" className="text-center text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">
        Frequently asked questions
      </h2>
      <div className="mt-12 divide-y divide-slate-200 rounded-2xl border border-slate-200 bg-white shadow-sm">
        {FAQ.map((item, i) => (
          <details key={item.id} name="faq" open={i === 0} className="group px-5 sm:px-6" data-testid={`faq-${item.id}`}>
            <summary className="faq-question">
              {item.question}
              <ChevronDownIcon className="faq-chevron" />
            </summary>
            <div className="faq-answer">
              <p>{item.answer}</p>
              {item.link ? (
                <Link to={item.link.to} className="mt-2 inline-block rounded font-semibold text-brand-700 hover:text-brand-800">
                  {item.link.label} <span aria-hidden="true">→</span>
                </Link>
              ) : null}
            </div>
          </details>
        ))}
      </div>
    </div>
  );
}
