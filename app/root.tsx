import { isRouteErrorResponse, Links, Meta, Outlet, Scripts, ScrollRestoration, useRouteLoaderData } from "react-router";
import type { Route } from "./+types/root";
import interLatin from "./fonts/inter-latin-wght.woff2?url";
import appCss from "./app.css?url";
import { FormatProvider } from "./components/format";
import { useNonce } from "./components/nonce";
import { LinkButton, ReloadLink } from "./components/ui";
import { AUTH_MESSAGES } from "./lib/auth/messages";
import { DEFAULT_LOCALE } from "./lib/locale";
import { pageMeta, SITE_TITLE } from "./lib/site/meta";
import { UTC } from "./lib/time-zone";
import { pageFormat } from "./server/page-format.server";

// The stylesheet with a precedence, so React writes it at the top of <head>, before the module
// preloads it hoists there: the browser asks for what the first paint needs first. The Latin face
// of Inter, fetched with the HTML instead of after the CSS has been parsed, so the text does not
// shift when the font arrives (the same hashed file app.css refers to).
export const links: Route.LinksFunction = () => [
  // (Under vitest CSS is not processed and the URL is empty; React warns about an empty href.)
  ...(appCss ? [{ rel: "stylesheet", href: appCss, precedence: "default" }] : []),
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
  { rel: "preload", href: interLatin, as: "font", type: "font/woff2", crossOrigin: "anonymous" },
];

/** The page's locale and time zone, for every figure and date on it (components/format.tsx). */
export function loader({ request, context }: Route.LoaderArgs) {
  return pageFormat(request, context);
}

export function meta() {
  return pageMeta(SITE_TITLE);
}

export function Layout({ children }: { children: React.ReactNode }) {
  const nonce = useNonce();
  // Absent on an error page whose loader did not run: the site's own formats then.
  const format = useRouteLoaderData<typeof loader>("root");
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
      </head>
      <body className="min-h-screen">
        <FormatProvider locale={format?.locale ?? DEFAULT_LOCALE} timeZone={format?.timeZone ?? UTC}>
          {children}
        </FormatProvider>
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  return (
    <>
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:fixed focus:left-4 focus:top-4 focus:z-50 focus:rounded-lg focus:bg-white focus:px-4 focus:py-2 focus:shadow-lg"
      >
        Skip to content
      </a>
      <Outlet />
    </>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  if (isRouteErrorResponse(error) && error.data?.kind === "init") {
    return <ErrorScreen title="App Initialization Error" message="The app could not start. Please reload the page." action="Reload Page" />;
  }
  if (isRouteErrorResponse(error) && error.data?.kind === "download-link") {
    return <ErrorScreen title="Download unavailable" message={String(error.data.message)} action="Go to Downloads" href="/dashboard/downloads" />;
  }
  if (isRouteErrorResponse(error) && error.data?.kind === "forbidden") {
    return <ErrorScreen title="Request refused" message={String(error.data.message)} action="Try Again" />;
  }
  // A form submission or navigation that never reached the server (offline, dropped connection).
  if (error instanceof TypeError && /fetch|network/i.test(error.message)) {
    return <ErrorScreen title="Connection problem" message={AUTH_MESSAGES.networkIssue} action="Try Again" />;
  }
  return <ErrorScreen title="Something went wrong" message="An unexpected error occurred. Please try refreshing the page." action="Try Again" />;
}

function ErrorScreen({ title, message, action, href }: { title: string; message: string; action: string; href?: string }) {
  return (
    <main id="main" className="flex min-h-screen items-center justify-center bg-slate-50 px-4">
      <div className="w-full max-w-md rounded-2xl border border-slate-200 bg-white p-8 text-center shadow-sm">
        <div className="mx-auto mb-4 flex h-12 w-12 items-center justify-center rounded-full bg-red-50 text-red-600" aria-hidden="true">
          <svg aria-hidden="true" viewBox="0 0 24 24" className="h-6 w-6" fill="none" stroke="currentColor" strokeWidth="2">
            <path d="M12 9v4m0 4h.01M10.3 3.9 1.8 18a2 2 0 0 0 1.7 3h17a2 2 0 0 0 1.7-3L13.7 3.9a2 2 0 0 0-3.4 0Z" />
          </svg>
        </div>
        <h1 className="text-xl font-semibold text-slate-900">{title}</h1>
        <p className="mt-2 text-sm text-slate-600">{message}</p>
        {href ? (
          <LinkButton to={href} className="mt-6">
            {action}
          </LinkButton>
        ) : (
          <ReloadLink className="mt-6">{action}</ReloadLink>
        )}
      </div>
    </main>
  );
}
