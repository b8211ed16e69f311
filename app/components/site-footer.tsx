import { Link, type LinkProps } from "react-router";
import { useSiteData } from "./site/site-data";
import { useModalHref } from "./site/site-modals";
import { Logo } from "./ui";

const INSTAGRAM_URL = "https://www.instagram.com/modelify.app";

// The footer (ADR 0013): Product (Features dialog, Pricing, Download, Changelog), Support (Contact
// Support, FAQ, Documentation, API Setup Guide, API Reference), Instagram, and the policy
// dialogs; the account links follow who is signed in (the site layout's loader knows).
/** One link of a footer list. */
function FooterLink(props: LinkProps) {
  return (
    <li>
      <Link className="hover:text-slate-900" {...props} />
    </li>
  );
}

/** The copyright line, Instagram and the policy dialogs. */
function FooterBottomBar() {
  const year = new Date().getFullYear();
  const modalHref = useModalHref();
  return (
    <div className="border-t border-slate-200">
      <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-3 px-4 py-6 text-xs text-slate-500 sm:px-6">
        <p>© {year} Modelify. All rights reserved.</p>
        <a href={INSTAGRAM_URL} target="_blank" rel="noreferrer" className="inline-flex items-center gap-1.5 rounded hover:text-slate-900">
          <svg viewBox="0 0 24 24" className="h-4 w-4" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
            <rect x="3" y="3" width="18" height="18" rx="5" />
            <circle cx="12" cy="12" r="4" />
            <circle cx="17.5" cy="6.5" r="0.5" fill="currentColor" />
          </svg>
          Instagram
        </a>
        <ul className="flex flex-wrap gap-4">
          <FooterLink to={modalHref("docs", { doc: "privacy" })} preventScrollReset>
            Privacy Policy
          </FooterLink>
          <FooterLink to={modalHref("docs", { doc: "terms" })} preventScrollReset>
            Terms of Service
          </FooterLink>
          <FooterLink to={modalHref("docs", { doc: "security" })} preventScrollReset>
            Security
          </FooterLink>
        </ul>
      </div>
    </div>
  );
}

export function SiteFooter() {
  const modalHref = useModalHref();
  const signedIn = Boolean(useSiteData()?.user);
  return (
    <footer className="border-t border-slate-200 bg-slate-50">
      <div className="mx-auto grid max-w-6xl gap-10 px-4 py-12 sm:px-6 md:grid-cols-5">
        <div className="md:col-span-2">
          <Logo />
          <p className="mt-3 max-w-sm text-sm leading-6 text-slate-600">
            Every AI model and specialised agent in one desktop app for Windows, macOS and Linux. Your API keys and conversations stay on your device.
          </p>
        </div>
        <div>
          <h2 className="text-sm font-semibold text-slate-900">Product</h2>
          <ul className="mt-3 space-y-2 text-sm text-slate-600">
            <FooterLink to={modalHref("features")} preventScrollReset>
              Features
            </FooterLink>
            <FooterLink to="/#pricing">Pricing</FooterLink>
            <FooterLink to={signedIn ? "/#download" : "/auth?mode=signin"}>Download</FooterLink>
            <FooterLink to="/changelog">Changelog</FooterLink>
            <FooterLink to="/early-access">Early Access</FooterLink>
          </ul>
        </div>
        <div>
          <h2 className="text-sm font-semibold text-slate-900">Support</h2>
          <ul className="mt-3 space-y-2 text-sm text-slate-600">
            <FooterLink to={modalHref("contact")} preventScrollReset>
              Contact Support
            </FooterLink>
            <FooterLink to="/#faq">FAQ</FooterLink>
            <FooterLink to={modalHref("docs", { doc: "api" })} preventScrollReset>
              Documentation
            </FooterLink>
            <FooterLink to={modalHref("api-guide")} preventScrollReset>
              API Setup Guide
            </FooterLink>
            <FooterLink to="/api-reference">API Reference</FooterLink>
          </ul>
        </div>
        <div>
          <h2 className="text-sm font-semibold text-slate-900">Account</h2>
          <ul className="mt-3 space-y-2 text-sm text-slate-600">
            {signedIn ? (
              <FooterLink to="/dashboard">Dashboard</FooterLink>
            ) : (
              <>
                <FooterLink to="/auth?mode=signin">Sign In</FooterLink>
                <FooterLink to="/auth?mode=signup">Create Account</FooterLink>
              </>
            )}
            <FooterLink to="/activate">Redeem a Key</FooterLink>
          </ul>
        </div>
      </div>
      <FooterBottomBar />
    </footer>
  );
}
