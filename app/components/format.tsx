// The page's formats (lib/format.ts) for its components: the locale and the time zone the root
// loader resolved for this request (the account's pinned locale or the browser's Accept-Language;
// the account's zone, or UTC signed out), so the server's render and the browser's hydration
// write every figure and date alike.
import { createContext, type ReactNode, useContext } from "react";
import { type Formats, formatsFor, SITE_FORMATS } from "~/lib/format";

const FormatContext = createContext<Formats>(SITE_FORMATS);

export function FormatProvider({ locale, timeZone, children }: { locale: string; timeZone: string; children: ReactNode }) {
  return <FormatContext value={formatsFor(locale, timeZone)}>{children}</FormatContext>;
}

/** The formats of the page's locale and the account's zone. */
export function useFormat(): Formats {
  return useContext(FormatContext);
}

/**
 * An instant as a date and time in the account's zone, the same instant in UTC on hover: where
 * rows of many accounts are compared (the admin's pages), or logs read beside them.
 */
export function ZonedTime({ ms, date = false }: { ms: number; date?: boolean }) {
  const f = useFormat();
  const utc = f.utc();
  return (
    <time dateTime={new Date(ms).toISOString()} title={utc.dateTime(ms)}>
      {date ? f.date(ms) : f.dateTime(ms)}
    </time>
  );
}
