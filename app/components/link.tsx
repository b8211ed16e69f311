// The site's links: an <a> whose plain click navigates inside the app, as React Router's <Link>
// does, at a fraction of its render cost.
//
// React Router's <Link> runs about fifteen hooks per link on every render (resolving its address
// against the matched routes, prefetch and click state), and a page renders 30-40 of them: they
// were about a tenth of a server render's JavaScript (docs/performance.md). Every address here is
// written from the site's root, so there is nothing to resolve: the link is an <a> with its
// address, and the click hands it to the router's navigate, taken once per page from
// <LinkNavigation> in the root route. Without it (an error screen above the router's context) or
// without JavaScript, the <a> is followed as it is. `data-discover` is what React Router's lazy
// route discovery looks for in the page, as it does on its own links.
import { type AnchorHTMLAttributes, createContext, type MouseEvent, type ReactNode, use } from "react";
import { type NavigateFunction, Link as RouterLink, useNavigate } from "react-router";

export interface LinkProps extends Omit<AnchorHTMLAttributes<HTMLAnchorElement>, "href"> {
  /** The address, from the site's root ("/pricing", "/?modal=docs&doc=terms", "/#faq"). */
  to: string;
  /** Replace the current history entry (by default only when the address is the current one). */
  replace?: boolean;
  /** Keep the scroll position (a dialog opened by its address). */
  preventScrollReset?: boolean;
  /** Load the address as a new document instead of navigating inside the app. */
  reloadDocument?: boolean;
}

const NavigateContext = createContext<NavigateFunction | null>(null);

/** Gives the links below it the router's navigate (the root route renders it around the pages). */
export function LinkNavigation({ children }: { children: ReactNode }) {
  return <NavigateContext value={useNavigate()}>{children}</NavigateContext>;
}

/** A click the browser would follow in this tab: the main button, no modifier, no other target. */
function followsHere(event: MouseEvent<HTMLAnchorElement>, target: string | undefined): boolean {
  return event.button === 0 && (!target || target === "_self") && !(event.metaKey || event.altKey || event.ctrlKey || event.shiftKey);
}

export function Link(props: LinkProps) {
  const navigate = use(NavigateContext);
  // An address relative to the current route is React Router's to resolve.
  if (!props.to.startsWith("/")) return <RouterLink {...props} />;
  const { to, replace, preventScrollReset, reloadDocument, onClick, target, ...rest } = props;
  return (
    <a
      {...rest}
      href={to}
      target={target}
      data-discover="true"
      onClick={(event) => {
        onClick?.(event);
        if (event.defaultPrevented || reloadDocument || navigate === null || !followsHere(event, target)) return;
        event.preventDefault();
        const here = `${window.location.pathname}${window.location.search}${window.location.hash}`;
        void navigate(to, { replace: replace ?? here === to, preventScrollReset });
      }}
    />
  );
}
