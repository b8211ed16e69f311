// The dialogs a marketing page opens by ?modal=…: read by the opener (site-modals.tsx) and by the
// dialogs' module it loads (site-dialogs.tsx), so neither imports the other for them.
export const SITE_MODALS = ["contact", "api-guide", "docs", "features"] as const;
export type SiteModal = (typeof SITE_MODALS)[number];
