// POST /api/stripe/webhook: verify Stripe's signature on the raw body, enqueue, answer fast.
// The consumer Worker does the work (workers/consumer.ts → lib/billing/stripe-events.server.ts).
import type { Route } from "./+types/webhook";
import { verifyWebhook } from "~/lib/billing/stripe.server";
import { hintsFromEvent } from "~/lib/billing/sync.server";
import { enqueue, type StripeEventMessage } from "~/lib/queue";
import { app } from "~/server/context.server";
import { jsonError, methodNotAllowed, postOnly } from "~/server/responses.server";

const MAX_BODY_BYTES = 256 * 1024;

export const loader = postOnly;

export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed();
  const { env: appEnv, queue } = app(context);
  if (!appEnv.STRIPE_WEBHOOK_SECRET || !appEnv.STRIPE_SECRET_KEY) return jsonError(503, "Stripe webhooks are not configured");
  const signature = request.headers.get("Stripe-Signature");
  if (!signature || signature.length > 2048) return jsonError(400, "Missing Stripe-Signature header");
  if (Number(request.headers.get("Content-Length") ?? 0) > MAX_BODY_BYTES) return jsonError(413, "Request body is too large.");
  const body = await request.text();
  if (body.length > MAX_BODY_BYTES) return jsonError(413, "Request body is too large.");

  let event: Awaited<ReturnType<typeof verifyWebhook>>;
  try {
    event = await verifyWebhook(appEnv, body, signature);
  } catch (error) {
    // Bad or expired signature (older than 300 s), or a signed body that is not an event.
    return jsonError(400, `Webhook verification failed: ${error instanceof Error ? error.message.split("\n")[0] : "invalid payload"}`);
  }
  if (typeof event?.id !== "string" || typeof event.type !== "string" || !event.data?.object) return jsonError(400, "Webhook payload is not a Stripe event");

  const hints = hintsFromEvent(event);
  const message: StripeEventMessage = { type: "stripe.event", eventId: event.id, eventType: event.type, ...hints };
  await enqueue(queue, message);
  return Response.json({ received: true });
}
