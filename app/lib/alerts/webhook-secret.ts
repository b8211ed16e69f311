// A webhook's signing secret (ADR 0033): random, shown once when the webhook is added, kept sealed
// under WEBHOOK_KEY (it must be read back to sign), and used as Stripe uses its endpoint secrets:
// `Modelify-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`.
import { WEBHOOKS } from "../constants";
import { randomBytes, toBase64Url, toHex } from "../crypto";
import type { Keyring } from "../keys";
import { openText, sealText } from "../sealed";

const PURPOSE = "modelify:webhook:secret";
const encoder = new TextEncoder();

export const SIGNATURE_HEADER = "Modelify-Signature";

/** A new secret as the owner copies it: `whsec_` and 256 random bits. */
export function newWebhookSecret(): string {
  return `whsec_${toBase64Url(randomBytes(WEBHOOKS.secretBytes))}`;
}

export function sealWebhookSecret(keys: Keyring, secret: string): Promise<string> {
  return sealText(keys, PURPOSE, secret);
}

/** The secret in clear; null when it is under a key this Worker no longer holds. */
export function openWebhookSecret(keys: Keyring, stored: string): Promise<string | null> {
  return openText(keys, PURPOSE, stored);
}

/** The signature header's value for `body` sent at `unixSeconds`. */
export async function signatureHeader(secret: string, unixSeconds: number, body: string): Promise<string> {
  const key = await crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const mac = await crypto.subtle.sign("HMAC", key, encoder.encode(`${unixSeconds}.${body}`));
  return `t=${unixSeconds},v1=${toHex(mac)}`;
}
