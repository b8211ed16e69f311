// GET /.well-known/change-password (W3C "A Well-Known URL for Changing Passwords"): password
// managers send people here to change a password; it leads to the page that does it (which sends a
// signed-out visitor to sign in first). The spec asks for a 302 or 303 (it names "302 Found").
import { redirect } from "react-router";
import { WELL_KNOWN } from "~/lib/constants";
import { getOnly } from "~/server/responses.server";

export const action = getOnly;

export function loader() {
  return redirect("/dashboard/profile/password", { status: 302, headers: { "Cache-Control": `public, max-age=${WELL_KNOWN.cacheSeconds}` } });
}
