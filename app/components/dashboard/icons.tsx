// Outline icons for the dashboard tabs (24px grid, currentColor).
import { LineIcon } from "../ui";

const paths: Record<string, string> = {
  overview: "M3 12l9-8 9 8M5 10v10h5v-6h4v6h5V10",
  usage: "M4 19V5m0 14h16M8 15l3-4 3 2 5-6",
  // A list of rows: the request log.
  requests: "M8 6h12M8 12h12M8 18h12M4 6h.01M4 12h.01M4 18h.01",
  profile: "M12 12a4 4 0 1 0 0-8 4 4 0 0 0 0 8Zm-7 8a7 7 0 0 1 14 0",
  analytics: "M4 20h16M7 16V9m5 7V4m5 12v-5",
  billing: "M3 7h18v10H3zM3 11h18M7 15h3",
  budget: "M12 3v18M16 7.5c0-1.9-1.8-3-4-3s-4 1.1-4 3 1.8 2.6 4 3 4 1.2 4 3.1-1.8 3-4 3-4-1.1-4-3",
  downloads: "M12 4v11m0 0-4-4m4 4 4-4M5 19h14",
  alerts: "M6 16V11a6 6 0 0 1 12 0v5l2 2H4zM10 20a2 2 0 0 0 4 0",
  debug: "M9 9h6v8H9zM12 4v5M5 13h4m6 0h4M6 8l3 2m9-2-3 2M6 19l3-2m9 2-3-2",
  support: "M3 6h18v12H3zM3 7l9 6 9-6",
  funnel: "M3 4h18l-7 8v6l-4 2v-8z",
  // An inbox tray: what came back undelivered.
  deadletters: "M3 13h5l2 3h4l2-3h5M3 13l2.5-8h13L21 13v6H3z",
  key: "M15.75 5.25a3 3 0 0 1 3 3m3 0a6 6 0 0 1-7.03 5.91c-.56-.1-1.16.03-1.56.43L10.5 17.25H8.25v2.25H6v2.25H2.25v-2.82c0-.6.24-1.17.66-1.59l6.5-6.5c.4-.4.53-1 .43-1.56A6 6 0 1 1 21.75 8.25Z",
  // Two people: a team; three with a plus: the teams page (making one, the list).
  team: "M9 11a3 3 0 1 0 0-6 3 3 0 0 0 0 6Zm-6 8a6 6 0 0 1 12 0M16 11a3 3 0 1 0 0-6M17 13.5a6 6 0 0 1 4 5.5",
  teams: "M9 11a3 3 0 1 0 0-6 3 3 0 0 0 0 6Zm-6 8a6 6 0 0 1 12 0M19 8v6M16 11h6",
  signout: "M15 12H4m0 0 4-4m-4 4 4 4M14 4h5a1 1 0 0 1 1 1v14a1 1 0 0 1-1 1h-5",
};

export function TabIcon({ name, className = "h-5 w-5" }: { name: string; className?: string }) {
  return <LineIcon d={(paths[name] ?? paths.overview)!} className={className} />;
}
