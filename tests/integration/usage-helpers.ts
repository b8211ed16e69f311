import { env, SELF } from "cloudflare:test";
import { ledgerFor } from "~/lib/usage/ledger/api";
import { createConfirmedUser, STRONG_PASSWORD, uniqueIp } from "./helpers";

export async function apiUser() {
  const { browser, email } = await createConfirmedUser();
  const response = await SELF.fetch("http://localhost/api/v1/auth/token", {
    method: "POST",
    headers: { "Content-Type": "application/json", "CF-Connecting-IP": uniqueIp() },
    body: JSON.stringify({ email, password: STRONG_PASSWORD }),
  });
  const tokens = await response.json<{ access_token: string; user: { id: string } }>();
  return { browser, email, token: tokens.access_token, userId: tokens.user.id };
}

let n = 0;
export function report(overrides: Record<string, unknown> = {}) {
  n++;
  return {
    report_id: crypto.randomUUID(),
    model_name: "gpt-4o",
    model_provider: "openai",
    request_type: "chat",
    tokens_used: 1500,
    tokens_input: 1000,
    tokens_output: 500,
    cost_usd: 0.0125,
    request_duration_ms: 1200,
    success: true,
    metadata: { conversation_id: `conv-${n % 3}` },
    app_version: "1.0.5",
    app_instance_id: "instance-1",
    ...overrides,
  };
}

export function postUsage(token: string | null, body: unknown, headers: Record<string, string> = {}) {
  return SELF.fetch("http://localhost/api/v1/usage", {
    method: "POST",
    headers: { "Content-Type": "application/json", ...(token ? { Authorization: `Bearer ${token}` } : {}), ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

/** The account's usage ledger (a Durable Object), as the Workers reach it. */
export function ledger(userId: string) {
  return ledgerFor(env.USAGE_LEDGER, userId);
}

/** Raw reports (and fallback reports) the account's ledger holds. */
export async function storedCount(userId: string) {
  const size = await ledger(userId).size();
  return size.reports + size.secure;
}

/** The account's daily aggregate rows, all of them. */
export async function dailyRows(userId: string) {
  return (await ledger(userId).read({ now: Date.now(), dailyFrom: "0000-00-00" })).daily ?? [];
}

export async function summedRequests(userId: string) {
  return (await dailyRows(userId)).reduce((sum, r) => sum + r.totalRequests, 0);
}

/** Waits until the consumer stored `expected` raw rows for the user (through the real queue). */
export async function waitForRows(userId: string, expected: number, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  let current = 0;
  while (Date.now() < deadline) {
    current = await storedCount(userId);
    if (current >= expected) return current;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`expected ${expected} usage rows for ${userId}, found ${current}`);
}

export async function dailyRow(userId: string, model: string) {
  return (await dailyRows(userId)).find((r) => r.modelName === model);
}
