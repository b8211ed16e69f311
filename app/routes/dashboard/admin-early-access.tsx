// Placeholder: replaced by the issue 11 work on this route.
import type { Route } from "./+types/admin-early-access";

export function loader(_: Route.LoaderArgs) {
  throw new Response("Not found", { status: 404 });
}

export default function Placeholder() {
  return null;
}
