// Checkout, customer portal, invoices and payment methods, on Stripe.
import { and, desc, eq, isNull } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { CHECKOUT, PLAN } from "../constants";
import { PLAN_PRICE } from "./plan-comparison";
import type { Db } from "../db.server";
import { schema } from "../db.server";
import type { StripeConfig } from "../config";
import { getSubscription } from "../subscriptions.server";
import { BILLING_MESSAGES as B } from "./messages";
import { countsAsActive, fromStripeStatus, isPaid } from "./statuses";
import { isPaymentConfigured, type Stripe } from "./stripe.server";
import { subscriptionUpsert } from "./sync.server";
import { mayStartTrial } from "./trial.server";
import { log } from "../log/log.server";

export type BillingDeps = { db: Db; env: StripeConfig; stripe: Stripe | null; origin: string };
export type BillingUser = { id: string; email: string };
type Failure = { ok: false; status: number; error: string };

function stripeMessage(error: unknown, fallback: string): string {
  // Stripe's own message is shown as given (spec); anything else gets the fallback.
  const e = error as { type?: unknown; message?: unknown } | null;
  if (e && typeof e.type === "string" && e.type.startsWith("Stripe") && typeof e.message === "string" && e.message) return e.message;
  return fallback;
}

/** One Stripe customer per user, created once and remembered on the profile. */
async function ensureCustomer(db: Db, stripe: Stripe, user: BillingUser): Promise<string> {
  const profile = await db.query.userProfiles.findFirst({ where: eq(schema.userProfiles.userId, user.id), columns: { stripeCustomerId: true } });
  if (profile?.stripeCustomerId) return profile.stripeCustomerId;
  const customer = await stripe.customers.create({ email: user.email, metadata: { user_id: user.id } }, { idempotencyKey: `modelify-customer-${user.id}` });
  await db
    .update(schema.userProfiles)
    .set({ stripeCustomerId: customer.id, updatedAt: Date.now() })
    .where(and(eq(schema.userProfiles.userId, user.id), isNull(schema.userProfiles.stripeCustomerId)));
  const stored = await db.query.userProfiles.findFirst({ where: eq(schema.userProfiles.userId, user.id), columns: { stripeCustomerId: true } });
  return stored?.stripeCustomerId ?? customer.id;
}

/**
 * One account, one checkout at a time: a session opened earlier and still open (with time to
 * pay) is handed out again; otherwise the previous one is expired and a new one is created with
 * an idempotency key chained on it, so requests racing each other get the same session from
 * Stripe. Two live subscriptions can still arise (e.g. a session opened before this rule); the
 * consumer cancels the newer one (sync.server.ts).
 */
export async function createCheckout(deps: BillingDeps, user: BillingUser, now = Date.now()): Promise<{ ok: true; url: string } | Failure> {
  const { stripe } = deps;
  if (!stripe || !isPaymentConfigured(deps.env)) return { ok: false, status: 503, error: B.notConfigured };
  if (countsAsActive(await getSubscription(deps.db, user.id), now)) return { ok: false, status: 409, error: B.alreadySubscribed };
  try {
    const previous = await deps.db.query.checkoutSessions.findFirst({
      where: eq(schema.checkoutSessions.userId, user.id),
      orderBy: desc(schema.checkoutSessions.createdAt),
    });
    if (previous) {
      const reusable = await openSession(stripe, previous.id, now);
      if (reusable) return { ok: true, url: reusable };
    }
    const customer = await ensureCustomer(deps.db, stripe, user);
    const trial = await mayStartTrial(deps, user.id, "throw");
    const session = await stripe.checkout.sessions.create(
      {
        mode: "subscription",
        customer,
        client_reference_id: user.id,
        line_items: [{ price: deps.env.STRIPE_PRICE_ID!, quantity: 1 }],
        success_url: `${deps.origin}/auth/success?session_id={CHECKOUT_SESSION_ID}`,
        cancel_url: `${deps.origin}/pricing`,
        subscription_data: { ...(trial ? { trial_period_days: PLAN.trialDays } : {}), metadata: { user_id: user.id } },
        metadata: { user_id: user.id },
      },
      { idempotencyKey: `modelify-checkout-${user.id}-after-${previous?.id ?? "none"}` },
    );
    if (!session.url) return { ok: false, status: 502, error: B.noSessionOrUrl };
    if (session.expires_at * 1000 <= now) return { ok: false, status: 502, error: B.sessionExpired };
    await deps.db
      .insert(schema.checkoutSessions)
      .values({ id: session.id, userId: user.id, url: session.url, expiresAt: session.expires_at * 1000, createdAt: now })
      .onConflictDoNothing();
    return { ok: true, url: session.url };
  } catch (error) {
    log.error("checkout_failed", {}, error);
    return { ok: false, status: 502, error: stripeMessage(error, B.checkoutUnexpected) };
  }
}

/**
 * The URL of a session that is still open with time to pay, or null. A session close to its end
 * is expired now, so nobody pays it after a new one was handed out.
 */
async function openSession(stripe: Stripe, sessionId: string, now: number): Promise<string | null> {
  let session: Stripe.Checkout.Session;
  try {
    session = await stripe.checkout.sessions.retrieve(sessionId);
  } catch (error) {
    if ((error as { statusCode?: number }).statusCode === 404) return null;
    throw error;
  }
  if (session.status !== "open") return null;
  if (session.url && session.expires_at * 1000 - now > CHECKOUT.reuseMinRemainingMs) return session.url;
  try {
    await stripe.checkout.sessions.expire(sessionId);
  } catch (error) {
    // Completed or expired in the meantime: either way it can no longer be paid twice.
    log.warn("checkout_expire_failed", { stripeCheckout: sessionId }, error);
  }
  return null;
}

/**
 * What a completed checkout did. A trial charges nothing: its first charge (the plan's price) is
 * due when Stripe's trial ends, and that date is Stripe's own, never "now + 7 days".
 */
export type CheckoutOutcome = { kind: "trial"; chargedUsd: 0; firstCharge: { amountUsd: number; date: number } } | { kind: "paid" };

export type CheckoutDetails =
  | {
      state: "confirmed";
      status: "Active" | "Trial";
      trialEnds: number | null;
      nextBilling: number | null;
      amount: string;
      outcome: CheckoutOutcome;
    }
  | { state: "pending" | "not-yours" | "invalid" | "unavailable" };

/** /auth/success: only a complete session of the signed-in user shows subscription details. */
export async function checkoutDetails(deps: BillingDeps, userId: string, sessionId: string): Promise<CheckoutDetails> {
  const { stripe } = deps;
  if (!stripe) return { state: "unavailable" };
  if (!/^cs_[A-Za-z0-9_]{1,200}$/.test(sessionId)) return { state: "invalid" };
  let session: Stripe.Checkout.Session;
  try {
    session = await stripe.checkout.sessions.retrieve(sessionId, { expand: ["subscription"] });
  } catch (error) {
    const status = (error as { statusCode?: number }).statusCode;
    return status === 404 ? { state: "invalid" } : { state: "unavailable" };
  }
  if (session.client_reference_id !== userId) return { state: "not-yours" };
  const subscription = typeof session.subscription === "object" ? session.subscription : null;
  const paid = session.payment_status === "paid" || session.payment_status === "no_payment_required";
  if (session.status !== "complete" || !paid || !subscription || !isPaid({ status: fromStripeStatus(subscription.status) })) return { state: "pending" };
  // Store what Stripe confirmed now, as the webhook's consumer will (same statements, so the
  // order they run in does not matter): the subscriber can download straight from this page.
  try {
    const upsert = await subscriptionUpsert(deps.db, stripe, { subscriptionId: subscription.id, customerId: null, userId });
    if (upsert) await deps.db.batch(upsert.statements as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
  } catch (error) {
    // The webhook still brings it; the page shows the confirmed payment either way.
    log.warn("checkout_success_sync_failed", { stripeCheckout: sessionId }, error);
  }
  const periodEnd = subscription.items?.data?.[0]?.current_period_end ?? null;
  const trialEnds = subscription.trial_end ? subscription.trial_end * 1000 : null;
  const trial = subscription.status === "trialing" && trialEnds !== null;
  return {
    state: "confirmed",
    status: trial ? "Trial" : "Active",
    trialEnds,
    nextBilling: periodEnd ? periodEnd * 1000 : null,
    amount: `${PLAN_PRICE}/month`,
    outcome: trial ? { kind: "trial", chargedUsd: 0, firstCharge: { amountUsd: PLAN.priceUsd, date: trialEnds } } : { kind: "paid" },
  };
}

export async function createPortal(deps: BillingDeps, userId: string): Promise<{ ok: true; url: string } | Failure> {
  const { stripe } = deps;
  if (!stripe) return { ok: false, status: 503, error: B.notConfigured };
  const profile = await deps.db.query.userProfiles.findFirst({ where: eq(schema.userProfiles.userId, userId), columns: { stripeCustomerId: true } });
  if (!profile?.stripeCustomerId) return { ok: false, status: 400, error: B.noCustomer };
  try {
    const session = await stripe.billingPortal.sessions.create({ customer: profile.stripeCustomerId, return_url: `${deps.origin}/dashboard/billing` });
    return { ok: true, url: session.url };
  } catch (error) {
    log.error("portal_failed", {}, error);
    return { ok: false, status: 502, error: B.portalFailed };
  }
}

export type InvoiceRow = {
  id: string;
  number: string;
  date: number;
  dueDate: number | null;
  amount: number;
  amountDue: number;
  currency: string;
  status: string;
  pdfUrl: string | null;
  hostedUrl: string | null;
  /** The invoice that opened a free trial: nothing was charged, whatever its status says. */
  trial: { until: number | null } | null;
};

/**
 * A subscription's first invoice at 0.00 is its trial's: Stripe marks it paid, as there was
 * nothing to pay. Checkout offers no coupons, so no other first invoice of ours comes to 0.00.
 * Its line's period is the trial's.
 */
function trialOf(inv: Stripe.Invoice): InvoiceRow["trial"] {
  if (inv.billing_reason !== "subscription_create" || inv.total !== 0 || inv.amount_paid !== 0) return null;
  const ends = inv.lines?.data?.map((line) => line.period?.end ?? 0) ?? [];
  const until = Math.max(0, ...ends);
  return { until: until > inv.created ? until * 1000 : null };
}

type PaymentMethodRow = { id: string; isDefault: boolean; brand: string; last4: string; expMonth: number; expYear: number; funding: string };

export type BillingSnapshot = {
  customerId: string | null;
  paymentMethods: PaymentMethodRow[];
  invoices: InvoiceRow[] | null; // null: Stripe could not be reached
  error: string | null;
};

/**
 * What the billing tab shows from Stripe: payment methods and invoices of the user's customer.
 * `customer`: the customer id as the caller already read it (the session's profile), else read here.
 */
export async function billingSnapshot(
  deps: BillingDeps,
  userId: string,
  include: { invoices: boolean },
  customer?: { id: string | null },
): Promise<BillingSnapshot> {
  const customerId = customer
    ? customer.id
    : ((await deps.db.query.userProfiles.findFirst({ where: eq(schema.userProfiles.userId, userId), columns: { stripeCustomerId: true } }))?.stripeCustomerId ??
      null);
  const { stripe } = deps;
  if (!customerId || !stripe) return { customerId, paymentMethods: [], invoices: [], error: null };
  try {
    const [customer, methods, invoices] = await Promise.all([
      stripe.customers.retrieve(customerId),
      stripe.customers.listPaymentMethods(customerId, { type: "card", limit: 10 }),
      include.invoices ? stripe.invoices.list({ customer: customerId, limit: 24 }) : Promise.resolve(null),
    ]);
    const defaultId = !customer.deleted ? (customer.invoice_settings?.default_payment_method as string | { id: string } | null) : null;
    const defaultPm = typeof defaultId === "string" ? defaultId : (defaultId?.id ?? null);
    return {
      customerId,
      paymentMethods: methods.data
        .filter((pm) => pm.card)
        .map((pm) => ({
          id: pm.id,
          isDefault: pm.id === defaultPm,
          brand: pm.card!.brand,
          last4: pm.card!.last4,
          expMonth: pm.card!.exp_month,
          expYear: pm.card!.exp_year,
          funding: pm.card!.funding,
        })),
      invoices: invoices
        ? invoices.data.map((inv) => ({
            id: inv.id ?? "",
            number: inv.number ?? inv.id ?? "",
            date: inv.created * 1000,
            dueDate: inv.due_date ? inv.due_date * 1000 : null,
            amount: inv.total / 100,
            amountDue: inv.amount_due / 100,
            currency: inv.currency.toUpperCase(),
            status: inv.status ?? "draft",
            pdfUrl: inv.invoice_pdf ?? null,
            hostedUrl: inv.hosted_invoice_url ?? null,
            trial: trialOf(inv),
          }))
        : [],
      error: null,
    };
  } catch (error) {
    log.error("billing_snapshot_failed", {}, error);
    return { customerId, paymentMethods: [], invoices: null, error: B.invoicesFailed };
  }
}
