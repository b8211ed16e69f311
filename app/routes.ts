import { index, layout, prefix, route, type RouteConfig } from "@react-router/dev/routes";

export default [
  // Browser pages and forms: cookie sessions, Origin checks (routes/_web.tsx).
  layout("routes/_web.tsx", [
    // Marketing and account pages under the site's top navigation.
    layout("routes/_site.tsx", [
      index("routes/home.tsx"),
      route("pricing", "routes/pricing.tsx"),
      route("changelog", "routes/changelog.tsx"),
      // A route of its own, not the index of "auth/": an index route's forms post to "?index", which
      // then showed in the address after every sign-in error (issue 46).
      route("auth", "routes/auth/index.tsx"),
      ...prefix("auth", [
        route("callback", "routes/auth/callback.tsx"),
        // The second step of a sign-in with two-factor on: the code (issue 29).
        route("two-factor", "routes/auth/two-factor.tsx"),
        route("reset-password", "routes/auth/reset-password.tsx"),
        route("success", "routes/auth/success.tsx"),
      ]),
      route("verify-phone", "routes/verify-phone.tsx"),
      route("early-access", "routes/early-access.tsx"),
      route("activate", "routes/activate.tsx"),
      // The desktop app's sign-in: approve the code it shows (device authorization, ADR 0018).
      route("device", "routes/device.tsx"),
      route("contact", "routes/contact.tsx"),
      route("api-setup", "routes/api-setup.tsx"),
      // The desktop API's reference, from its OpenAPI document (issue 30, ADR 0025).
      route("api-reference", "routes/api-reference.tsx"),
      route("legal/:doc", "routes/legal.tsx"),
      route("profile/confirm-email", "routes/profile/confirm-email.tsx"),
      route("profile/cancel-email-change", "routes/profile/cancel-email-change.tsx"),
      // A team's invitation: shown and accepted once signed in with the invited address (issue 50).
      route("teams/invitations/:token", "routes/teams/invitation.tsx"),
      ...prefix("billing", [route("checkout", "routes/billing/checkout.tsx"), route("portal", "routes/billing/portal.tsx")]),
    ]),
    route("auth/sign-out", "routes/auth/sign-out.tsx"),
    // Passkey sign-in (WebAuthn): a challenge, then the passkey's answer (JSON; issue 29).
    ...prefix("auth/passkey", [route("options", "routes/auth/passkey/options.ts"), route("verify", "routes/auth/passkey/verify.ts")]),
    // First-party marketing events from the browser (page views; answers 204).
    route("events", "routes/events.ts"),
    ...prefix("downloads", [route("prepare", "routes/downloads/prepare.ts"), route("file/:token", "routes/downloads/file.ts")]),

    // The signed-in dashboard: one layout (sidebar, sign-out), one route per tab.
    route("dashboard", "routes/dashboard/layout.tsx", [
      index("routes/dashboard/index.tsx"),
      route("usage", "routes/dashboard/usage/index.tsx"),
      // Every report, filtered and paged by the URL (issue 49).
      route("usage/requests", "routes/dashboard/usage/requests.tsx"),
      route("analytics", "routes/dashboard/analytics.tsx"),
      route("billing", "routes/dashboard/billing.tsx"),
      route("budget", "routes/dashboard/budget.tsx"),
      route("alerts", "routes/dashboard/alerts.tsx"),
      route("downloads", "routes/dashboard/downloads.tsx"),
      // Personal API keys: made (with a recent proof) and revoked here (issue 49, ADR 0034).
      route("api-keys", "routes/dashboard/api-keys.tsx"),
      // Teams (issue 50, ADR 0036): each page asks D1 for the viewer's membership (404 without one)
      // and shows the same links between them (components/teams/team-nav.tsx).
      route("teams", "routes/dashboard/teams/index.tsx"),
      route("teams/:slug", "routes/dashboard/teams/team.tsx"),
      ...prefix("teams/:slug", [
        // Usage (ADR 0038): totals, members, models and the viewer's days.
        route("usage", "routes/dashboard/teams/usage.tsx"),
        route("members", "routes/dashboard/teams/members.tsx"),
        route("activity", "routes/dashboard/teams/activity.tsx"),
        // The shared budget, its alerts and hard caps, a cap per member (ADR 0039).
        route("budget", "routes/dashboard/teams/budget.tsx"),
        // The Team plan: checkout, seats with proration, the portal (ADR 0037).
        route("billing", "routes/dashboard/teams/billing.tsx"),
      ]),
      route("profile", "routes/dashboard/profile/index.tsx"),
      route("profile/two-factor", "routes/dashboard/profile/two-factor.tsx"),
      // "Confirm it's you" before a change to the account's ways in, and the list of them to check
      // (the first page after a password reset): issue 45.
      route("profile/confirm", "routes/dashboard/profile/confirm.tsx"),
      route("profile/access", "routes/dashboard/profile/access.tsx"),
      // Changing the password while signed in (issue 46); /.well-known/change-password leads here.
      route("profile/password", "routes/dashboard/profile/password.tsx"),
      route("profile/delete", "routes/dashboard/profile/delete.tsx"),
      route("admin", "routes/dashboard/admin/index.tsx"),
      route("admin/early-access", "routes/dashboard/admin/early-access/index.tsx"),
      route("admin/support", "routes/dashboard/admin/support.tsx"),
      route("admin/funnel", "routes/dashboard/admin/funnel.tsx"),
      route("admin/dead-letters", "routes/dashboard/admin/dead-letters.tsx"),
      route("admin/teams", "routes/dashboard/admin/teams/index.tsx"),
      route("admin/teams/:teamId", "routes/dashboard/admin/teams/team.tsx"),
    ]),
    route("dashboard/usage.csv", "routes/dashboard/usage.csv.ts"),
    // The tidy exports of any range (issue 49): one table a file.
    route("dashboard/usage/requests.csv", "routes/dashboard/usage/requests.csv.ts"),
    route("dashboard/usage/days.csv", "routes/dashboard/usage/days.csv.ts"),
    route("dashboard/usage/models.csv", "routes/dashboard/usage/models.csv.ts"),
    // The usage tab's WebSocket to the account's own ledger (live totals).
    route("dashboard/usage/live", "routes/dashboard/usage/live.ts"),
    // A team's usage page's tidy export (member × day × model) and its live socket to the team's ledger.
    route("dashboard/teams/:slug/usage.csv", "routes/dashboard/teams/usage.csv.ts"),
    route("dashboard/teams/:slug/usage/live", "routes/dashboard/teams/usage-live.ts"),
    route("dashboard/admin/releases/:step", "routes/dashboard/admin/releases.ts"),
    route("dashboard/admin/early-access/keys.csv", "routes/dashboard/admin/early-access/keys.csv.ts"),
    // The profile's own writes: pictures, phone codes, sessions (each answers JSON or redirects).
    route("dashboard/profile/image", "routes/dashboard/profile/image.ts"),
    route("dashboard/profile/phone", "routes/dashboard/profile/phone.ts"),
    route("dashboard/profile/sessions", "routes/dashboard/profile/sessions.ts"),
    // "Download my data": ask for an export (POST), and fetch a ready one (its owner only).
    route("dashboard/profile/export", "routes/dashboard/profile/export.ts"),
    route("dashboard/profile/export/:id", "routes/dashboard/profile/export-file.ts"),
    route("dashboard/profile/passkeys", "routes/dashboard/profile/passkeys.ts"),
    // Profile pictures from R2, for their owner only.
    route("profile-images/:userId/:file", "routes/profile-images.ts"),

    // Local development only (404 anywhere else).
    ...prefix("dev", [route("outbox", "routes/dev/outbox.tsx"), route("outbox.json", "routes/dev/outbox.json.ts")]),

    // /waitlist, /fast-waitlist, /old-waitlist, /debug, /main and any unknown page go home;
    // unknown files and /.well-known/ documents answer 404.
    route("*", "routes/redirect-home.ts"),
  ]),

  // For crawlers.
  route("robots.txt", "routes/robots.txt.ts"),
  route("sitemap.xml", "routes/sitemap.xml.ts"),
  // For programs that look for the site's documents where RFC 8615 puts them.
  ...prefix(".well-known", [
    // RFC 8414: OAuth clients find the device and token endpoints from here (issue 30).
    route("oauth-authorization-server", "routes/well-known/oauth-authorization-server.ts"),
    // RFC 9116: where to report a vulnerability.
    route("security.txt", "routes/well-known/security.txt.ts"),
    // W3C "A Well-Known URL for Changing Passwords": where password managers send people.
    route("change-password", "routes/well-known/change-password.ts"),
  ]),

  // The JSON API of the desktop app and Stripe's webhook: bearer tokens and signatures, no cookies.
  ...prefix("api", [
    layout("routes/api/layout.ts", [
      ...prefix("v1", [
        route("auth/device", "routes/api/v1/auth/device.ts"),
        route("auth/token", "routes/api/v1/auth/token.ts"),
        route("auth/refresh", "routes/api/v1/auth/refresh.ts"),
        route("me", "routes/api/v1/me.ts"),
        route("entitlements", "routes/api/v1/entitlements/index.ts"),
        route("entitlements/claim", "routes/api/v1/entitlements/claim.ts"),
        route("usage", "routes/api/v1/usage/index.ts"),
        route("usage/secure-report", "routes/api/v1/usage/secure-report.ts"),
        // The read API for one's own usage: personal API keys or the desktop token (issue 49, ADR 0034).
        route("usage/summary", "routes/api/v1/usage/summary.ts"),
        route("usage/requests", "routes/api/v1/usage/requests.ts"),
        route("health", "routes/api/v1/health.ts"),
        route("openapi.json", "routes/api/v1/openapi.json.ts"),
      ]),
      route("stripe/webhook", "routes/api/stripe/webhook.ts"),
      // Operators only (Authorization: Bearer <OPS_TOKEN>; 404 without one configured).
      route("ops/usage/move", "routes/api/ops/usage/move.ts"),
      route("*", "routes/api/not-found.ts", { id: "api-not-found" }),
    ]),
  ]),
] satisfies RouteConfig;
