// What a log line may carry. Logs are read by operators and kept by the platform for days: they
// say what happened, in which request, to which account (as a salted hash), never what a user
// typed or was sent. Two rules, so that a careless field cannot leak:
// - by key: a field whose name says it holds a secret or personal data ("password", "token",
//   "email", "to", "code", "link", "text"…) is replaced by "[redacted]" whatever it holds, and a
//   field naming an account ("userId", "adminId"…) is replaced by the account's hash;
// - by value: every string, error messages and stacks included, has e-mail addresses, JWTs,
//   bearer credentials, password hashes, Stripe keys, URL query strings and codes masked, since an
//   error may quote what it failed on.
import { LOG } from "../constants";

export const REDACTED = "[redacted]";

// Words of a field's name (camelCase, snake_case and kebab-case split) that make it sensitive.
const SENSITIVE_WORDS = new Set([
  "password",
  "passwords",
  "passphrase",
  "secret",
  "secrets",
  "token",
  "tokens",
  "otp",
  "code",
  "codes",
  "email",
  "emails",
  "mail",
  "to",
  "from",
  "cc",
  "bcc",
  "reply",
  "phone",
  "hash",
  "link",
  "links",
  "url",
  "urls",
  "href",
  "cookie",
  "cookies",
  "authorization",
  "answer",
  "nonce",
  "credential",
  "credentials",
  "key",
  "signature",
  "ip",
  "address",
  "text",
  "subject",
  "body",
  "metadata",
  "proof",
  "query",
  "search",
  "session",
]);

// Fields naming an account: their value is hashed, under a name that says so.
const ACCOUNT_FIELDS: Record<string, string> = {
  userId: "account",
  user_id: "account",
  accountId: "account",
  account_id: "account",
  adminId: "adminAccount",
  actorId: "actorAccount",
  actorUserId: "actorAccount",
  targetUserId: "targetAccount",
  ownerId: "ownerAccount",
  hintUserId: "hintAccount",
};

function wordsOf(key: string): string[] {
  return key
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/** Whether a field of this name is never logged as it is. */
export function isSensitiveKey(key: string): boolean {
  return wordsOf(key).some((word) => SENSITIVE_WORDS.has(word));
}

// In that order: a URL's query goes before an address inside it is looked for, and so on.
const VALUE_RULES: Array<[RegExp, string]> = [
  [/\b(https?:\/\/[^\s?#"'<>]*)[?#][^\s"'<>]*/g, "$1?[query]"],
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi, "$1 [redacted]"],
  [/eyJ[A-Za-z0-9_-]*(\.[A-Za-z0-9_-]*){0,2}/g, "[jwt]"],
  [/[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g, "[email]"],
  [/pbkdf2_sha256\$\S*/g, "[hash]"],
  [/\b(sk|rk)_(test|live)_[A-Za-z0-9_]+|\bwhsec_[A-Za-z0-9_]+/g, "[key]"],
  [/\b(code|otp|pin|passcode)\b(\D{0,24}?)\d{4,8}\b/gi, "$1$2[code]"],
  // A random token of ours (32 bytes in base64url, or more): letters and digits together.
  [/(?<![A-Za-z0-9_-])(?=[A-Za-z0-9_-]*\d)(?=[A-Za-z0-9_-]*[A-Za-z])[A-Za-z0-9_-]{43,}(?![A-Za-z0-9_-])/g, "[token]"],
];

/** A string with everything secret-shaped masked, cut to `max` characters. */
export function scrubText(value: string, max: number = LOG.maxStringChars): string {
  let out = value.length > max * 2 ? value.slice(0, max * 2) : value;
  for (const [pattern, replacement] of VALUE_RULES) out = out.replace(pattern, replacement);
  return out.length > max ? `${out.slice(0, max)}…` : out;
}

export type SerializedError = { name: string; message: string; stack?: string; query?: string };

/**
 * The error a database statement failed with, when `error` is drizzle's wrapper of it
 * (DrizzleQueryError): that wrapper's message lists the statement's bound values (addresses,
 * names, a message's text), so only its cause and its SQL, which has placeholders, are shown.
 */
function queryFailure(error: unknown): { cause: unknown; query: string } | null {
  if (!(error instanceof Error) || !("query" in error) || !("params" in error) || typeof error.query !== "string") return null;
  return { cause: error.cause, query: error.query };
}

/** An error fit to leave the Worker (rethrown to the runtime): drizzle's wrapper gives way to its cause. */
export function withoutStatementValues(error: unknown): unknown {
  const failed = queryFailure(error);
  return failed ? (failed.cause ?? new Error("A database statement failed")) : error;
}

/** An error as a log line carries it: its name, message and stack, scrubbed. */
export function serializeError(error: unknown): SerializedError {
  const failed = queryFailure(error);
  const shown = withoutStatementValues(error);
  const out: SerializedError =
    shown instanceof Error
      ? { name: shown.name, message: scrubText(shown.message), ...(shown.stack ? { stack: scrubText(shown.stack, LOG.maxStackChars) } : {}) }
      : { name: typeof shown, message: scrubText(String(shown)) };
  if (failed) out.query = scrubText(failed.query);
  serialized.add(out);
  return out;
}

// An error serializeError made (already scrubbed, its stack kept longer than other strings).
const serialized = new WeakSet<object>();
function isSerializedError(value: unknown): value is SerializedError {
  return typeof value === "object" && value !== null && serialized.has(value);
}

/**
 * The fields of a line made safe: sensitive keys redacted, account ids hashed (`hashAccount`),
 * strings scrubbed, errors serialized, depth and sizes bounded.
 */
export function redactFields(fields: Record<string, unknown>, hashAccount: (id: string) => string, depth = 0): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    const accountField = ACCOUNT_FIELDS[key];
    if (accountField) {
      out[accountField] = typeof value === "string" && value ? hashAccount(value) : null;
      continue;
    }
    out[key] = isSensitiveKey(key) ? REDACTED : redactValue(value, hashAccount, depth);
  }
  return out;
}

function redactValue(value: unknown, hashAccount: (id: string) => string, depth: number): unknown {
  if (value === null || typeof value === "number" || typeof value === "boolean") return value;
  if (typeof value === "string") return scrubText(value);
  if (typeof value === "bigint") return value.toString();
  if (value instanceof Error) return serializeError(value);
  if (isSerializedError(value)) return value;
  if (depth >= LOG.maxDepth) return "[deep]";
  if (Array.isArray(value)) return value.slice(0, LOG.maxArrayItems).map((item) => redactValue(item, hashAccount, depth + 1));
  if (typeof value === "object") return redactFields(value as Record<string, unknown>, hashAccount, depth + 1);
  return String(typeof value);
}
