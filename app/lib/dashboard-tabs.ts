export const DASHBOARD_TABS = ["overview", "usage", "profile", "analytics", "billing", "budget", "downloads", "debug"] as const;
export type DashboardTab = (typeof DASHBOARD_TABS)[number];

/** Unknown tabs fall back to overview; the debug tab exists for admins only. */
export function parseTab(value: string | null, role: "user" | "admin"): DashboardTab {
  const tab = DASHBOARD_TABS.find((t) => t === value) ?? "overview";
  return tab === "debug" && role !== "admin" ? "overview" : tab;
}
