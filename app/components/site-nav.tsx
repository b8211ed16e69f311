import { Link, NavLink, useLocation } from "react-router";
import { useMenuDisclosure } from "./menu-disclosure";
import { buttonClass, ChevronDownIcon, cx, Logo } from "./ui";

type SiteLink = { to: string; label: string; primary?: boolean };

// Spec: fixed top navigation. Signed in: Pricing and Dashboard. Signed out: Sign In and
// Sign Up, hidden on any /auth path. Pricing and Download are there for everyone (issue 46: a
// visitor at 1280 px found neither); Download leads to the home page's download section, which
// knows what each visitor may download.
function navLinks(signedIn: boolean, onAuth: boolean): { pages: SiteLink[]; account: SiteLink[] } {
  const pages = [
    { to: "/pricing", label: "Pricing" },
    { to: "/#download", label: "Download" },
  ];
  if (signedIn) return { pages, account: [{ to: "/dashboard", label: "Dashboard", primary: true }] };
  if (onAuth) return { pages, account: [] };
  return {
    pages,
    account: [
      { to: "/auth?mode=signin", label: "Sign In" },
      { to: "/auth?mode=signup", label: "Sign Up", primary: true },
    ],
  };
}

export function SiteNav({ signedIn }: { signedIn: boolean }) {
  const { pathname } = useLocation();
  const { pages, account } = navLinks(signedIn, pathname.startsWith("/auth"));
  const primary = account.find((l) => l.primary);
  return (
    <header className="fixed inset-x-0 top-0 z-40 border-b border-slate-200/80 bg-white/90 backdrop-blur">
      <nav aria-label="Main" className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4 sm:px-6">
        <Link to="/" aria-label="Modelify home" className="rounded-lg">
          <Logo />
        </Link>
        {/* From 768 px: every link in the bar. */}
        <div className="hidden items-center gap-2 md:flex">
          {pages.map((l) => (
            <PageLink key={l.to} link={l} className={buttonClass("ghost", "sm", "aria-[current=page]:text-brand-700")} />
          ))}
          {account.length > 0 ? <span className="mx-1 h-5 w-px bg-slate-200" aria-hidden="true" /> : null}
          {account.map((l) => (
            <Link key={l.to} to={l.to} className={buttonClass(l.primary ? "primary" : "ghost", "sm")}>
              {l.label}
            </Link>
          ))}
        </div>
        {/* Below it: the main call to action in the bar, the rest behind Menu. */}
        <div className="flex items-center gap-2 md:hidden">
          {primary ? (
            <Link to={primary.to} className={buttonClass("primary", "sm")}>
              {primary.label}
            </Link>
          ) : null}
          <MobileMenu links={[...pages, ...account.filter((l) => !l.primary)]} />
        </div>
      </nav>
    </header>
  );
}

function MobileMenu({ links }: { links: SiteLink[] }) {
  const menu = useMenuDisclosure();
  return (
    <details ref={menu.ref} className="group relative" data-testid="site-menu">
      <summary className={cx(buttonClass("secondary", "sm"), "cursor-pointer list-none [&::-webkit-details-marker]:hidden")}>
        Menu
        <ChevronDownIcon className="h-4 w-4 transition-transform group-open:rotate-180" />
      </summary>
      <ul className="absolute right-0 top-full z-50 mt-2 w-48 rounded-xl border border-slate-200 bg-white p-2 shadow-lg">
        {links.map((l) => (
          <li key={l.to}>
            <PageLink
              link={l}
              onClick={menu.close}
              className="block rounded-lg px-3 py-2.5 text-sm font-medium text-slate-700 hover:bg-slate-100 hover:text-slate-900 aria-[current=page]:text-brand-700"
            />
          </li>
        ))}
      </ul>
    </details>
  );
}

/**
 * A page of the bar: NavLink marks the current one. A link to a section of a page (/#download)
 * is not that page, so it is a plain link and never marked.
 */
function PageLink({ link, className, onClick }: { link: SiteLink; className: string; onClick?: () => void }) {
  if (link.to.includes("#")) {
    return (
      <Link to={link.to} className={className} onClick={onClick}>
        {link.label}
      </Link>
    );
  }
  return (
    <NavLink to={link.to} end className={className} onClick={onClick}>
      {link.label}
    </NavLink>
  );
}
