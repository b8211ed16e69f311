import type { Route } from "./+types/downloads";
import { TabError } from "~/components/dashboard/tab-error";
import { UpcomingTab } from "~/components/dashboard/upcoming-tab";
import { requireUser } from "~/server/auth";

export function loader({ context }: Route.LoaderArgs) {
  requireUser(context);
  return null;
}

export default function Downloads() {
  return <UpcomingTab title="Downloads" icon="downloads" description="Installers for Windows, macOS and Linux, and your download history." />;
}

export const ErrorBoundary = TabError;
