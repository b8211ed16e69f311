// The marketing and account pages: the fixed top navigation, aware of who is signed in.
import { Outlet } from "react-router";
import type { Route } from "./+types/_site";
import { SiteNav } from "~/components/site-nav";
import type { SiteLayoutData } from "~/components/site/site-data";
import { AdMeasurement } from "~/components/site/marketing";
import { provideSiteDialogs, SiteModals } from "~/components/site/site-modals";
import { urlDialogs } from "~/components/url-dialogs.server";
import { displayName } from "~/lib/names";
import { securityScore } from "~/lib/site/security-score";
import { getAuth } from "~/server/auth.server";
import { app } from "~/server/context.server";
import { pageSecurityHeaders } from "~/server/security-headers.server";

// The same for every request (the headers are the code's, not the request's): graded once, on the
// first request (a Worker may not make a Request at start-up).
let gradedScore: number | undefined;
const siteSecurityScore = () => (gradedScore ??= securityScore(pageSecurityHeaders()).score);

// Only what the navigation and the site's dialogs need; no database read here.
export async function loader({ request, context }: Route.LoaderArgs): Promise<SiteLayoutData> {
  // A dialog asked for in the URL is rendered into the HTML (see provideSiteDialogs).
  if (new URL(request.url).searchParams.has("modal")) provideSiteDialogs(urlDialogs.siteDialogs);
  const { user } = getAuth(context);
  return {
    user: user ? { email: user.email, name: displayName(user), fullName: [user.firstName, user.lastName].filter(Boolean).join(" ") } : null,
    inbox: app(context).env.SUPPORT_INBOX,
    pixelId: app(context).env.META_PIXEL_ID ?? null,
    securityScore: siteSecurityScore(),
  };
}

export default function Site({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <SiteNav signedIn={loaderData.user !== null} />
      <Outlet />
      <AdMeasurement pixelId={loaderData.pixelId} />
      <SiteModals inbox={loaderData.inbox} defaults={loaderData.user ? { name: loaderData.user.fullName, email: loaderData.user.email } : undefined} />
    </>
  );
}
