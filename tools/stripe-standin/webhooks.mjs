// Webhook delivery, signed the way Stripe signs (the SDK's own test-header helper), so the app's
// webhook route verifies stand-in events with the same code as real ones.
//
// Each request delivers its own outbox, sequentially in emit order, before the HTTP answer (there is no
// global queue): a webhook handler that calls back into this API, and causes events itself, cannot
// deadlock against the delivery that is waiting on it.
import Stripe from "stripe";

const ATTEMPTS = 3;
const RETRY_DELAY_MS = 300;

/**
 * @param {{ url: string | null, secret: string }} options
 */
export function createWebhooks({ url, secret }) {
  const signer = new Stripe("sk_test_standin"); // only used for .webhooks.generateTestHeaderString
  let webhookUrl = url;
  // Once closed, pending retries stop and failures are no longer worth a warning.
  let closed = false;

  const deliver = async (event) => {
    if (!webhookUrl) return false;
    const payload = JSON.stringify(event, null, 2);
    // The URL may be changed mid-delivery; retries still go where the first attempt went.
    const target = webhookUrl;
    let problem = "";
    for (let attempt = 1; attempt <= ATTEMPTS && !closed; attempt++) {
      try {
        const signature = signer.webhooks.generateTestHeaderString({ payload, secret });
        const response = await fetch(target, {
          method: "POST",
          body: payload,
          signal: AbortSignal.timeout(10_000),
          headers: { "Content-Type": "application/json", "Stripe-Signature": signature, "User-Agent": "Stripe/1.0 (+https://stripe.com/docs/webhooks)" },
        });
        await response.arrayBuffer().catch(() => {});
        if (response.ok) return true;
        problem = `HTTP ${response.status}`;
      } catch (err) {
        problem = err?.cause?.code ?? err?.message ?? String(err);
      }
      if (attempt < ATTEMPTS) await new Promise((r) => setTimeout(r, RETRY_DELAY_MS));
    }
    if (!closed) console.warn(`[stripe-standin] webhook ${event.type} (${event.id}) to ${target} failed after ${ATTEMPTS} attempts: ${problem}`);
    return false;
  };

  return {
    deliver,
    /** Delivers a request's events one after another; a failed delivery does not stop the rest. */
    async flush(outbox) {
      for (const event of outbox) await deliver(event);
    },
    get url() {
      return webhookUrl;
    },
    setUrl(next) {
      webhookUrl = next || null;
    },
    close() {
      closed = true;
    },
  };
}
