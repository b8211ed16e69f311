import { useLocation } from "react-router";
import { Link } from "~/components/link";
import { buttonClass, Logo } from "./ui";

// Spec: fixed top navigation. Signed in: Pricing and Dashboard. Signed out: Sign In and
// Sign Up, hidden on any /auth path.
export function SiteNav({ signedIn }: { signedIn: boolean }) {
  const { pathname } = useLocation();
  const onAuth = pathname.startsWith("/auth");
  return (
    <header className="fixed inset-x-0 top-0 z-40 border-b border-slate-200/80 bg-white/90 backdrop-blur">
      <nav aria-label="Main" className="mx-auto flex h-16 max-w-6xl items-center justify-between px-4 sm:px-6">
        <Link to="/" aria-label="Modelify home" className="rounded-lg">
          <Logo />
        </Link>
        <div className="flex items-center gap-2">
          {signedIn ? (
            <>
              <Link to="/pricing" className={buttonClass("ghost", "sm")}>
                Pricing
              </Link>
              <Link to="/dashboard" className={buttonClass("primary", "sm")}>
                Dashboard
              </Link>
            </>
          ) : onAuth ? null : (
            <>
              <Link to="/auth?mode=signin" className={buttonClass("ghost", "sm")}>
                Sign In
              </Link>
              <Link to="/auth?mode=signup" className={buttonClass("primary", "sm")}>
                Sign Up
              </Link>
            </>
          )}
        </div>
      </nav>
    </header>
  );
}
