// What the site layout's loader (routes/_site.tsx) gives every page under it; components read it
// with useSiteData instead of importing the route.
import { useRouteLoaderData } from "react-router";

export type SiteLayoutData = {
  user: { email: string; name: string; fullName: string } | null;
  inbox: string;
  /** The advertising pixel's id when one is configured (it still waits for consent). */
  pixelId: string | null;
  /** The grade out of 100 the pages' security headers earn (the features dialog's Security Score). */
  securityScore: number;
};

export function useSiteData(): SiteLayoutData | undefined {
  return useRouteLoaderData("routes/_site") as SiteLayoutData | undefined;
}
