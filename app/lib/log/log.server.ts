// The one logger: every line is one JSON object on the console, which Workers Logs keeps and
// `wrangler tail` shows. A line names its event, the request (or queue batch) it belongs to, and
// the account as a salted hash (HMAC-SHA-256 with LOG_SALT, cut to LOG.accountHashHexChars);
// its fields go through redact.ts first, so no secret, token, code or address reaches the logs.
//
// Each request and each queue batch runs inside a scope (withLogScope): the lines written during
// it carry its id, and the scope collects what its closing line reports (the matched route, the
// account, the first error, the dead letters recorded). The scope rides on AsyncLocalStorage, so
// the domain code that logs needs no request object passed down.
import { AsyncLocalStorage } from "node:async_hooks";
import { createHmac } from "node:crypto";
import { LOG } from "../constants";
import { redactFields, serializeError } from "./redact";

export type LogScope = {
  /** The request's (or batch's) id, on every line written inside it. */
  id: string;
  /** The matched route pattern (set by the router's instrumentation). */
  route?: string;
  /** The account the request acted for, raw: hashed only when a line is written. */
  accountId?: string;
  /** The first unexpected error of the request (the closing line's `error`). */
  error?: unknown;
  /** Dead letters recorded during a queue batch. */
  deadLettered: number;
};

const scopes = new AsyncLocalStorage<LogScope>();

/** Runs `run` as one request or batch: lines inside it carry `id`. */
export function withLogScope<T>(id: string, run: (scope: LogScope) => T): T {
  const scope: LogScope = { id, deadLettered: 0 };
  return scopes.run(scope, () => run(scope));
}

/** The current request's or batch's scope, if any. */
export function logScope(): LogScope | undefined {
  return scopes.getStore();
}

/** The account the current request acts for (the signed-in user, the bearer token's holder). */
export function noteAccount(userId: string): void {
  const scope = scopes.getStore();
  if (scope) scope.accountId = userId;
}

/** An unexpected error of the current request: the first one is what its closing line reports. */
export function noteError(error: unknown): void {
  const scope = scopes.getStore();
  if (scope && scope.error === undefined) scope.error = error;
}

/** A new dead letter was recorded during the current queue batch (its closing line counts them). */
export function noteDeadLetter(): void {
  const scope = scopes.getStore();
  if (scope) scope.deadLettered++;
}

// Local runs and tests have no LOG_SALT: their hashes need only be stable, not secret.
const LOCAL_SALT = "modelify-local-log-salt";
let salt = LOCAL_SALT;

/** The salt account hashes are made with (the Worker's LOG_SALT secret), set by each Worker entry. */
export function setLogSalt(value: string | undefined): void {
  salt = value ?? LOCAL_SALT;
}

/** An account as logs and the dead-letter page show it: salted, one-way, the same in every line. */
export function accountHash(userId: string): string {
  return createHmac("sha256", salt).update(userId).digest("hex").slice(0, LOG.accountHashHexChars);
}

type Level = "info" | "warn" | "error";

function write(level: Level, event: string, fields: Record<string, unknown>): void {
  const scope = scopes.getStore();
  const line = { level, event, ...(scope ? { requestId: scope.id } : {}), ...redactFields(fields, accountHash) };
  const text = JSON.stringify(line);
  if (level === "error") console.error(text);
  else if (level === "warn") console.warn(text);
  else console.log(text);
}

/**
 * Writes one line. `fields` may hold anything: sensitive keys are redacted and account ids
 * hashed (redact.ts). An error goes in `error`, with its stack.
 */
export const log = {
  info(event: string, fields: Record<string, unknown> = {}): void {
    write("info", event, fields);
  },
  warn(event: string, fields: Record<string, unknown> = {}, error?: unknown): void {
    write("warn", event, error === undefined ? fields : { ...fields, error: serializeError(error) });
  },
  error(event: string, fields: Record<string, unknown> = {}, error?: unknown): void {
    write("error", event, error === undefined ? fields : { ...fields, error: serializeError(error) });
  },
};
