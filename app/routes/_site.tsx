// The marketing and account pages: the fixed top navigation, aware of who is signed in.
import { Outlet } from "react-router";
import type { Route } from "./+types/_site";
import { SiteNav } from "~/components/site-nav";
import { displayName } from "~/lib/names";
import { getAuth } from "~/server/auth";

// Only what the navigation needs; no database read here.
export function loader({ context }: Route.LoaderArgs) {
  const { user } = getAuth(context);
  return { user: user ? { email: user.email, name: displayName(user) } : null };
}

export default function Site({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <SiteNav signedIn={loaderData.user !== null} />
      <Outlet />
    </>
  );
}
