// The consumer's delivery of one alert to one webhook (ADR 0033): checked again, signed, POSTed
// without following redirects, and each attempt noted for the owner's page. A failed attempt is
// retried by the queue after a growing delay; after WEBHOOKS.maxAttempts the queue hands the
// message to the dead letters, where the admins see it as every other background failure.
import { WEBHOOKS } from "../constants";
import type { Db } from "../db.server";
import { webhookKeys } from "../keys";
import { log } from "../log/log.server";
import type { WebhookMessage } from "../queue/messages";
import { recordDelivery, webhookOf } from "./store.server";
import { checkWebhookUrl } from "./webhook-url";
import { openWebhookSecret, SIGNATURE_HEADER, signatureHeader } from "./webhook-secret";

export type WebhookDeps = { db: Db; env: { WEBHOOK_KEY?: string | undefined; WEBHOOK_KEY_PREVIOUS?: string | undefined }; fetcher?: typeof fetch };

/** Seconds before attempt `attempts + 1`: doubling from WEBHOOKS.retryBaseSeconds, at most retryMaxSeconds. */
export function retryDelaySeconds(attempts: number): number {
  return Math.min(WEBHOOKS.retryBaseSeconds * 2 ** Math.max(0, attempts - 1), WEBHOOKS.retryMaxSeconds);
}

/** Delivers the message's event and acknowledges it, or asks the queue to try again later. */
export async function handleWebhookMessage(deps: WebhookDeps, message: Message<unknown>, m: WebhookMessage): Promise<void> {
  let delivered: boolean;
  try {
    delivered = await deliver(deps, m, message.attempts);
  } catch (error) {
    log.error("webhook_delivery_failed", { attempt: message.attempts }, error);
    delivered = false;
  }
  if (delivered) message.ack();
  else message.retry({ delaySeconds: retryDelaySeconds(message.attempts) });
}

/** True when the attempt is over for good (delivered, or nothing a retry could change). */
async function deliver(deps: WebhookDeps, m: WebhookMessage, attempt: number): Promise<boolean> {
  const hook = await webhookOf(deps.db, m.userId, m.webhookId);
  // Removed since the alert: nothing to send, nowhere to note it.
  if (!hook) return true;
  const note = (result: { statusCode: number | null; error: string | null; ok: boolean }) =>
    recordDelivery(deps.db, m.webhookId, { eventId: m.event.id, eventType: m.event.type, attempt, deliveredAt: Date.now(), ...result });
  const check = checkWebhookUrl(hook.url);
  if (!check.ok) {
    await note({ statusCode: null, error: check.message, ok: false });
    return true;
  }
  const keys = webhookKeys(deps.env);
  const secret = keys ? await openWebhookSecret(keys, hook.secretEnc) : null;
  if (secret === null) {
    // A configuration fault (WEBHOOK_KEY unset or rotated past this secret): retried, then dead-lettered for the admins.
    log.error("webhook_secret_unavailable", {});
    await note({ statusCode: null, error: "Not sent: the signing secret could not be read", ok: false });
    return false;
  }
  const body = JSON.stringify(m.event);
  const signature = await signatureHeader(secret, Math.floor(Date.now() / 1000), body);
  let response: Response;
  try {
    response = await (deps.fetcher ?? fetch)(check.url, {
      method: "POST",
      headers: { "Content-Type": "application/json", "User-Agent": "Modelify-Webhooks/1", [SIGNATURE_HEADER]: signature, "Modelify-Delivery": m.event.id },
      body,
      redirect: "manual",
      signal: AbortSignal.timeout(WEBHOOKS.timeoutMs),
    });
  } catch (error) {
    const timedOut = error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
    await note({ statusCode: null, error: timedOut ? `No answer within ${WEBHOOKS.timeoutMs / 1000} s` : "Could not connect", ok: false });
    return false;
  }
  // The answer's body is not read: only its status counts.
  await response.body?.cancel();
  if (response.status >= 200 && response.status < 300) {
    await note({ statusCode: response.status, error: null, ok: true });
    return true;
  }
  const error = response.status >= 300 && response.status < 400 ? "Redirects are not followed" : `HTTP ${response.status}`;
  await note({ statusCode: response.status, error, ok: false });
  return false;
}
