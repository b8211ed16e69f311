// What the billing screens say, word for word.
export const BILLING_MESSAGES = {
  notConfigured: "Payment system is not configured. Please contact support.",
  checkoutUnexpected: "An unexpected error occurred during checkout. Please try again.",
  noSessionOrUrl: "No session ID or URL received from server",
  sessionExpired: "Checkout session has expired. Please try again.",
  invoicesFailed: "Failed to load invoices. Please try again.",
  portalFailed: "Failed to create portal session",
  noCustomer: "No Stripe customer ID found. Please contact support.",
  alreadySubscribed: "You already have an active subscription. Manage it from the Billing tab.",
} as const;
