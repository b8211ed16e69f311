// A team's Team plan on Stripe (ADR 0037): checkout by the owner with a quantity (the seats), seats
// added or removed through Stripe's API with proration, and the customer portal for the team's
// invoices and card. One Stripe customer per team (teams.stripe_customer_id), apart from its owner's
// own, so the team's invoices never mix with anyone's personal ones.
import { and, eq, isNull } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { TEAMS } from "../constants";
import type { Db } from "../db.server";
import { schema } from "../db.server";
import { log } from "../log/log.server";
import type { BillingDeps, BillingUser } from "./billing.server";
import { countsAsActive, isPaid } from "./statuses";
import { isPaymentConfigured, type Stripe } from "./stripe.server";
import type { TeamBilling } from "./team-access.server";
import { TEAM_BILLING_MESSAGES as M } from "./team-messages";
import { teamSubscriptionUpsert } from "./team-sync.server";

type Failure = { ok: false; status: number; error: string };
type Outcome = { ok: true; url: string } | Failure;

export const teamBillingPath = (slug: string) => `/dashboard/teams/${slug}/billing`;

/** The team's Stripe customer, created once (an idempotency key per team) and kept on the team. */
async function ensureTeamCustomer(db: Db, stripe: Stripe, team: TeamBilling, owner: BillingUser): Promise<string> {
  if (team.stripeCustomerId) return team.stripeCustomerId;
  const customer = await stripe.customers.create(
    { email: owner.email, name: team.name, metadata: { team_id: team.id } },
    { idempotencyKey: `modelify-team-customer-${team.id}` },
  );
  const [stored] = await db
    .update(schema.teams)
    .set({ stripeCustomerId: customer.id })
    .where(and(eq(schema.teams.id, team.id), isNull(schema.teams.stripeCustomerId)))
    .returning({ stripeCustomerId: schema.teams.stripeCustomerId });
  if (stored?.stripeCustomerId) return stored.stripeCustomerId;
  // Another request stored one first (the same customer: the idempotency key): keep what is stored.
  const again = await db.query.teams.findFirst({ where: eq(schema.teams.id, team.id), columns: { stripeCustomerId: true } });
  return again?.stripeCustomerId ?? customer.id;
}

/**
 * The team's one trial, claimed by the statement that marks it used: of checkouts started side by
 * side exactly one gets it. A claim whose checkout could not be created is given back.
 */
async function claimTrial(db: Db, teamId: string): Promise<boolean> {
  const claimed = await db
    .update(schema.teams)
    .set({ trialUsed: true })
    .where(and(eq(schema.teams.id, teamId), eq(schema.teams.trialUsed, false)))
    .returning({ id: schema.teams.id });
  return claimed.length === 1;
}

function configured(deps: BillingDeps): deps is BillingDeps & { stripe: Stripe; env: { STRIPE_TEAM_PRICE_ID: string } } {
  return Boolean(deps.stripe && isPaymentConfigured(deps.env) && deps.env.STRIPE_TEAM_PRICE_ID);
}

/** Checkout for the Team plan: `seats` seats (at least the team's members), the trial if the team never had one. */
export async function createTeamCheckout(deps: BillingDeps, team: TeamBilling, owner: BillingUser, seats: number, now = Date.now()): Promise<Outcome> {
  if (!configured(deps)) return { ok: false, status: 503, error: M.notConfigured };
  if (countsAsActive(team.subscription, now)) return { ok: false, status: 409, error: M.alreadySubscribed };
  if (seats < team.members) return { ok: false, status: 400, error: M.seatsBelowMembers(team.members) };
  let trial = false;
  try {
    const customer = await ensureTeamCustomer(deps.db, deps.stripe, team, owner);
    trial = await claimTrial(deps.db, team.id);
    const metadata = { team_id: team.id };
    const session = await deps.stripe.checkout.sessions.create({
      mode: "subscription",
      customer,
      client_reference_id: team.id,
      line_items: [{ price: deps.env.STRIPE_TEAM_PRICE_ID, quantity: seats }],
      success_url: `${deps.origin}${teamBillingPath(team.slug)}?checkout=done`,
      cancel_url: `${deps.origin}${teamBillingPath(team.slug)}`,
      subscription_data: { ...(trial ? { trial_period_days: TEAMS.trialDays } : {}), metadata },
      metadata,
    });
    if (!session.url) throw new Error("Checkout Session without a URL");
    return { ok: true, url: session.url };
  } catch (error) {
    if (trial) await deps.db.update(schema.teams).set({ trialUsed: false }).where(eq(schema.teams.id, team.id));
    log.error("team_checkout_failed", { team: team.id }, error);
    return { ok: false, status: 502, error: M.checkoutFailed };
  }
}

/**
 * The owner adds or removes seats: Stripe's subscription item gets the new quantity, prorated for
 * the rest of the period (create_prorations: on the next invoice), and what Stripe then reports is
 * stored at once, so the page and the seat limit show it without waiting for the webhook.
 */
export async function changeTeamSeats(deps: BillingDeps, team: TeamBilling, actorId: string, seats: number): Promise<{ ok: true; seats: number } | Failure> {
  const { stripe } = deps;
  if (!stripe) return { ok: false, status: 503, error: M.notConfigured };
  const stored = team.subscription;
  if (!stored?.stripeSubscriptionId || !isPaid(stored)) return { ok: false, status: 409, error: M.noPlan };
  if (seats < team.members) return { ok: false, status: 409, error: M.seatsBelowMembers(team.members) };
  if (seats === stored.quantity) return { ok: true, seats };
  try {
    const current = await stripe.subscriptions.retrieve(stored.stripeSubscriptionId);
    const item = current.items.data[0];
    if (!item) throw new Error("Team subscription without an item");
    const updated = await stripe.subscriptions.update(
      current.id,
      { items: [{ id: item.id, quantity: seats }], proration_behavior: "create_prorations", expand: ["default_payment_method"] },
      // A resubmitted form (same change from the same quantity) changes Stripe once.
      { idempotencyKey: `modelify-team-seats-${current.id}-${item.quantity}-${seats}` },
    );
    const upsert = await teamSubscriptionUpsert(deps.db, stripe, updated, actorId);
    if (upsert) await deps.db.batch(upsert.statements as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
    return { ok: true, seats };
  } catch (error) {
    log.error("team_seats_failed", { team: team.id }, error);
    return { ok: false, status: 502, error: M.seatsFailed };
  }
}

/** Stripe's customer portal for the team's customer: its invoices, card and cancellation. */
export async function createTeamPortal(deps: BillingDeps, team: TeamBilling): Promise<Outcome> {
  if (!deps.stripe) return { ok: false, status: 503, error: M.notConfigured };
  if (!team.stripeCustomerId) return { ok: false, status: 400, error: M.noCustomer };
  try {
    const session = await deps.stripe.billingPortal.sessions.create({
      customer: team.stripeCustomerId,
      return_url: `${deps.origin}${teamBillingPath(team.slug)}`,
    });
    return { ok: true, url: session.url };
  } catch (error) {
    log.error("team_portal_failed", { team: team.id }, error);
    return { ok: false, status: 502, error: M.portalFailed };
  }
}

/** The next invoice's total in cents (the next period and any prorations), or null when Stripe cannot say. */
export async function upcomingTotal(stripe: Stripe | null, team: TeamBilling): Promise<number | null> {
  const id = team.subscription?.stripeSubscriptionId;
  if (!stripe || !id || !isPaid(team.subscription)) return null;
  try {
    return (await stripe.invoices.createPreview({ subscription: id })).total;
  } catch (error) {
    log.warn("team_upcoming_invoice_failed", { team: team.id }, error);
    return null;
  }
}
