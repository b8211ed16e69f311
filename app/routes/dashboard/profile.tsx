import type { Route } from "./+types/profile";
import { TabError } from "~/components/dashboard/tab-error";
import { UpcomingTab } from "~/components/dashboard/upcoming-tab";
import { requireUser } from "~/server/auth";

export function loader({ context }: Route.LoaderArgs) {
  requireUser(context);
  return null;
}

export default function Profile() {
  return <UpcomingTab title="Profile" icon="profile" description="Your name, username, pictures, contact details and security question." />;
}

export const ErrorBoundary = TabError;
