// The spec's billing texts (site-billing-dashboard §2 and §8).
export const BILLING_MESSAGES = {
  notConfigured: "Payment system is not configured. Please contact support.",
  checkoutUnexpected: "An unexpected error occurred during checkout. Please try again.",
  noSessionOrUrl: "No session ID or URL received from server",
  sessionExpired: "Checkout session has expired. Please try again.",
  invoicesFailed: "Failed to load invoices. Please try again.",
  portalFailed: "Failed to create portal session",
  portalOpenFailed: "Failed to open Stripe Customer Portal",
  noCustomer: "No Stripe customer ID found. Please contact support.",
  invoiceUnavailable: "Invoice download not available for this invoice.",
  upgradeFailed: "Failed to upgrade plan",
  planNotFound: "Plan not found",
  alreadySubscribed: "You already have an active subscription. Manage it from the Billing tab.",
} as const;
