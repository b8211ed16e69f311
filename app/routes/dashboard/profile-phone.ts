// Placeholder: replaced by the issue 10 work on this route.
import type { Route } from "./+types/profile-phone";

export function loader(_: Route.LoaderArgs) {
  throw new Response("Not found", { status: 404 });
}
