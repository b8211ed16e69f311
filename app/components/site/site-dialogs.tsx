// The bodies of the site's dialogs (site-modals.tsx loads this module when one is opened).
import { useLocation } from "react-router";
import { UrlModal, withParams } from "../modal";
import { legalDocById } from "~/lib/site/legal";
import { ApiKeyGuide } from "./api-key-guide";
import { FeaturesDialogBody } from "./features-dialog";
import { LegalDocument, LegalTabs } from "./legal-document";
import { ContactAside, ContactForm } from "./contact-form";
import type { SiteModal } from "./site-modal-names";

export default function SiteDialog({ open, inbox, defaults }: { open: SiteModal; inbox: string; defaults?: { name?: string; email?: string } }) {
  const { pathname, search } = useLocation();
  if (open === "contact") {
    return (
      <UrlModal closeTo={withParams(pathname, search, { modal: null })} labelledBy="contact-title" wide>
        <h2 id="contact-title" className="text-xl font-semibold text-slate-900">
          Contact Support
        </h2>
        <p className="mt-1 text-sm text-slate-600">Tell us what's going on and we'll get back to you by e-mail.</p>
        <div className="mt-6 grid gap-8 md:grid-cols-[minmax(0,1fr)_13rem]">
          <ContactForm defaults={defaults} />
          <ContactAside inbox={inbox} />
        </div>
      </UrlModal>
    );
  }
  if (open === "api-guide") {
    return (
      <UrlModal closeTo={withParams(pathname, search, { modal: null, provider: null, tab: null })} labelledBy="api-guide-title" wide>
        <h2 id="api-guide-title" className="text-xl font-semibold text-slate-900">
          API Key Setup Guide
        </h2>
        <p className="mt-1 text-sm text-slate-600">Modelify uses your own keys. Choose a provider to see how to get one.</p>
        <div className="mt-5">
          <ApiKeyGuide />
        </div>
      </UrlModal>
    );
  }
  if (open === "features") {
    const closeTo = withParams(pathname, search, { modal: null, tab: null });
    return (
      <UrlModal closeTo={closeTo} labelledBy="features-title" wide>
        <h2 id="features-title" className="text-xl font-semibold text-slate-900">
          Modelify Features
        </h2>
        <p className="mt-1 text-sm text-slate-600">Everything in the desktop app, area by area.</p>
        <div className="mt-5">
          <FeaturesDialogBody closeTo={closeTo} />
        </div>
      </UrlModal>
    );
  }
  if (open === "docs") {
    const doc = legalDocById(new URLSearchParams(search).get("doc")) ?? "privacy";
    return (
      <UrlModal closeTo={withParams(pathname, search, { modal: null, doc: null })} labelledBy="docs-title" wide>
        <h2 id="docs-title" className="sr-only">
          Documentation and policies
        </h2>
        <LegalTabs current={doc} hrefFor={(d) => withParams(pathname, search, { doc: d })} />
        <div className="mt-6">
          <LegalDocument doc={doc} />
        </div>
        <p className="mt-6 text-xs text-slate-500">
          <a href={`/legal/${doc}`} className="rounded font-medium text-brand-700 hover:text-brand-800">
            Open as a page
          </a>
        </p>
      </UrlModal>
    );
  }
  return null;
}
