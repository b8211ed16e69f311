// What a dead letter keeps of a queue message (issue 25 F7). Queue bodies carry secrets: reset,
// confirmation and e-mail-change links, phone codes, the password and security-answer hashes of a
// sign-up, addresses and mail text. Dead letters are read by operators and kept for days, so each
// one keeps only what says what failed, for whom and why. The rules are allow-lists: a field added
// to a message later stays out of dead letters until someone decides here that it is safe.
import { type QueueMessage, queueMessageSchema } from "./queue";

export type QueueMessageType = QueueMessage["type"];

/** Every kind of message on the queue, read from its schema (so a new kind cannot be missed). */
export const QUEUE_MESSAGE_TYPES: readonly QueueMessageType[] = queueMessageSchema.options.map((option) => option.shape.type.value);

/** Why a message became a dead letter: it could never parse, or it failed every retry. */
export type DeadLetterReason = "malformed" | "retries_exhausted" | "account_not_found";

export type RedactedDeadLetter = {
  kind: QueueMessageType | "unknown";
  /** The account the message is about, where it names one. */
  userId: string | null;
  reason: DeadLetterReason;
  /** Which fields were wrong (names and zod's codes, never what they held); null when not known. */
  error: string | null;
  /** When the message was first sent. */
  sentAt: number | null;
  /** A Stripe event's id and type, so it can be looked up and replayed from Stripe. */
  stripeEvent?: { id: string; type: string };
};

type Kept = Pick<RedactedDeadLetter, "userId" | "stripeEvent">;
type Rules = { [K in QueueMessageType]: (message: Extract<QueueMessage, { type: K }>) => Kept };

// Mail, texts, sign-ups and recoveries name no account (an address is not one, and is personal):
// their kind is all that is kept.
export const REDACTION_RULES: Rules = {
  "mail.send": () => ({ userId: null }),
  "sms.send": () => ({ userId: null }),
  "account.signup": () => ({ userId: null }),
  "account.recovery": () => ({ userId: null }),
  "account.export": (m) => ({ userId: accountId(m.userId) }),
  "stripe.event": (m) => ({ userId: accountId(m.userId), stripeEvent: { id: m.eventId, type: m.eventType } }),
  "usage.report": (m) => ({ userId: accountId(m.userId) }),
  "usage.reports": (m) => ({ userId: accountId(m.userId) }),
  "usage.secure": (m) => ({ userId: accountId(m.userId) }),
  "marketing.event": (m) => ({ userId: accountId(m.userId) }),
  // The event's figures stay out (account data); the account and that it was an alert delivery are enough.
  "webhook.deliver": (m) => ({ userId: accountId(m.userId) }),
};

const ACCOUNT_ID = /^[A-Za-z0-9_-]{1,64}$/;
const SAFE_KEY = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
const MAX_ISSUES = 5;

/** Only something shaped like our account ids: anything else in that field is not kept. */
function accountId(value: unknown): string | null {
  return typeof value === "string" && ACCOUNT_ID.test(value) ? value : null;
}

function isKnownType(value: unknown): value is QueueMessageType {
  return typeof value === "string" && (QUEUE_MESSAGE_TYPES as readonly string[]).includes(value);
}

// Paths name schema fields, but a record's keys (a usage report's metadata) come from the sender:
// a key that does not look like a field name is not kept.
function describeIssues(issues: ReadonlyArray<{ path: PropertyKey[]; code: string }>): string {
  const described = issues.slice(0, MAX_ISSUES).map((issue) => {
    const path = issue.path.map((key) => (typeof key === "number" || (typeof key === "string" && SAFE_KEY.test(key)) ? String(key) : "?")).join(".");
    return `${path || "(message)"}: ${issue.code}`;
  });
  if (issues.length > MAX_ISSUES) described.push(`and ${issues.length - MAX_ISSUES} more`);
  return described.join("; ");
}

/** The dead letter of a queue body: pure, so the rules are tested without a queue. */
export function redactDeadLetter(body: unknown, meta: { reason: DeadLetterReason; sentAt: number | null }): RedactedDeadLetter {
  const parsed = queueMessageSchema.safeParse(body);
  if (parsed.success) {
    const message = parsed.data;
    const rule = REDACTION_RULES[message.type] as (m: QueueMessage) => Kept;
    return { kind: message.type, ...rule(message), reason: meta.reason, error: null, sentAt: meta.sentAt };
  }
  // A body that does not parse is trusted for nothing but its kind and an id-shaped account.
  const fields = typeof body === "object" && body !== null ? (body as Record<string, unknown>) : {};
  return {
    kind: isKnownType(fields.type) ? fields.type : "unknown",
    userId: accountId(fields.userId),
    reason: meta.reason,
    error: describeIssues(parsed.error.issues),
    sentAt: meta.sentAt,
  };
}
