// The locale and time zone a page is written in (issue 48), resolved once per request by the root
// loader and given to every component through components/format.tsx: the account's pinned locale
// or the best of the browser's Accept-Language (en-US without one); the account's zone, or UTC for
// a signed-out visitor, who has none (the pages they see show dates, not times).
import type { RouterContextProvider } from "react-router";
import { bestLocale, type Locale } from "~/lib/locale";
import { UTC } from "~/lib/time-zone";
import { getAuth } from "./auth.server";

export type PageFormat = { locale: Locale; timeZone: string };

export function pageFormat(request: Request, context: Readonly<RouterContextProvider>): PageFormat {
  const { user } = getAuth(context);
  return {
    locale: user?.profile.locale ?? bestLocale(request.headers.get("Accept-Language")),
    timeZone: user?.profile.timeZone ?? UTC,
  };
}
