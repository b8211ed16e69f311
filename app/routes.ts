import { index, route, type RouteConfig } from "@react-router/dev/routes";

export default [
  index("routes/home.tsx"),
  route("pricing", "routes/pricing.tsx"),
  route("changelog", "routes/changelog.tsx"),
  route("auth", "routes/auth.tsx"),
  route("auth/callback", "routes/auth.callback.tsx"),
  route("auth/reset-password", "routes/auth.reset-password.tsx"),
  route("auth/success", "routes/auth.success.tsx"),
  route("auth/sign-out", "routes/auth.sign-out.tsx"),
  route("billing/checkout", "routes/billing.checkout.tsx"),
  route("billing/portal", "routes/billing.portal.tsx"),
  route("admin/subscription", "routes/admin.subscription.tsx"),
  route("verify-phone", "routes/verify-phone.tsx"),
  route("dashboard", "routes/dashboard.tsx"),
  route("dev/outbox", "routes/dev.outbox.tsx"),
  route("dev/outbox.json", "routes/dev.outbox-json.ts"),
  route("api/v1/auth/token", "routes/api.v1.auth.token.ts"),
  route("api/v1/auth/refresh", "routes/api.v1.auth.refresh.ts"),
  route("api/v1/me", "routes/api.v1.me.ts"),
  route("api/stripe/webhook", "routes/api.stripe.webhook.ts"),
  route("api/*", "routes/api.not-found.ts", { id: "api-not-found" }),
  // /waitlist, /fast-waitlist, /old-waitlist, /debug, /main and anything unknown.
  route("*", "routes/redirect-home.ts"),
] satisfies RouteConfig;
