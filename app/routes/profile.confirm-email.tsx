// Placeholder: replaced by the issue 10 work on this route.
import type { Route } from "./+types/profile.confirm-email";

export function loader(_: Route.LoaderArgs) {
  throw new Response("Not found", { status: 404 });
}

export default function ConfirmEmail() {
  return null;
}
