// Which dead letters an admin may put back on the queue (ADR 0024). Replaying must change nothing
// that already happened, so a kind is replayable only where its consumer does each effect once:
// - usage reports: the account's ledger stores a report id once;
// - Stripe events, sign-ups: processed_messages records the message, in the same batch as its effect;
// - texts: claimed in processed_messages before they are sent;
// - mail: the outbox keeps a mail id once, the provider an idempotency key for a day;
// - marketing events: one D1 batch (nothing half-written), milestones deduplicated;
// - password recoveries: the reset mail is sent at most once per resend interval.
// The exceptions:
// - a malformed message fails the same way again;
// - a report of an account that no longer exists has nowhere to go;
// - a data export was ended as failed when its message died (the user may ask again at once);
// - a mail or text older than a day carries links and codes that have expired, and the mail
//   provider has forgotten its idempotency key.
import { DEAD_LETTERS } from "../constants";
import { formatDuration } from "../format";
import type { DeadLetterReason, QueueMessageType } from "../queue-redaction";

export type ReplayVerdict = { replayable: true } | { replayable: false; why: string };

const NOT_KEPT_KINDS: ReadonlySet<string> = new Set<QueueMessageType>(["account.export"]);
const SHORT_LIVED_KINDS: ReadonlySet<string> = new Set<QueueMessageType>(["mail.send", "sms.send"]);

/** Whether a dead letter of this kind and reason keeps its original (sealed) to be replayed. */
export function keepsOriginal(kind: string, reason: DeadLetterReason): boolean {
  return reason === "retries_exhausted" && kind !== "unknown" && !NOT_KEPT_KINDS.has(kind);
}

/** Whether an admin may replay this dead letter now, and if not, why (shown beside it). */
export function replayVerdict(
  letter: { kind: string; reason: DeadLetterReason; sentAt: number | null; createdAt: number; hasOriginal: boolean },
  now: number,
): ReplayVerdict {
  if (letter.reason === "malformed") return { replayable: false, why: "It never matched the message format: it would fail the same way again." };
  if (letter.reason === "account_not_found") return { replayable: false, why: "Its account no longer exists." };
  if (NOT_KEPT_KINDS.has(letter.kind)) return { replayable: false, why: "The export was ended as failed; the user can ask for a new one." };
  if (!letter.hasOriginal) return { replayable: false, why: "The message itself was not kept (no DEAD_LETTER_KEY when it failed)." };
  if (SHORT_LIVED_KINDS.has(letter.kind) && now - (letter.sentAt ?? letter.createdAt) > DEAD_LETTERS.replayMessageMs) {
    return {
      replayable: false,
      why: `Older than ${formatDuration(DEAD_LETTERS.replayMessageMs, "day", { article: true })}: its links and codes have expired.`,
    };
  }
  return { replayable: true };
}
