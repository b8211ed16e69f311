// Waits until a test site's queue consumer has handled everything enqueued before the call: the
// event itself, not a quiet period.
//
// How: a marker goes through the queue behind everything else, and the wait ends when its row is
// in the database. The local queue (Miniflare's broker) hands out messages in the order they were
// sent, one batch at a time, and the consumer writes a batch's marketing events after every other
// message of that batch (lib/queue/dispatch.server.ts): once the marker's row is there, every message
// sent before it has been handled. A message the consumer sends while handling another (the mail
// after a sign-up, a budget alert after usage) is sent before that batch ends, so a second marker
// covers it; no handler's message sends a third. (A second batch starts before the first is done
// only when a full batch of 100 is waiting.)
//
// A message the consumer fails on is retried after the marker, and dead-lettered after its last
// try: drainQueue does not wait for that. The consumer logs each failure as it happens
// (consumerRetries reads them from the site's log).
//
// The marker is a browser page-view event ("AuthStart", not a funnel stage) for a path no page has,
// /e2e-drain/<uuid>: one marketing_events row that tests can tell from any other.
import { randomUUID } from "node:crypto";
import { expect } from "@playwright/test";
import { nextClientAddress } from "./browser.ts";
import { queryD1In } from "./local-d1.ts";

const DRAIN_PATH_PREFIX = "/e2e-drain/";

/** Returns the markers' paths (each is one marketing_events row). */
export async function drainQueue(site: { baseUrl: string; stateDir: string }, { rounds = 2, timeoutMs = 15_000 } = {}): Promise<string[]> {
  const paths: string[] = [];
  for (let round = 0; round < rounds; round++) {
    const path = `${DRAIN_PATH_PREFIX}${randomUUID()}`;
    const response = await fetch(`${site.baseUrl}/events`, {
      method: "POST",
      // A client address of its own: the per-address cap on events never applies.
      headers: { "Content-Type": "application/json", Origin: site.baseUrl, "CF-Connecting-IP": nextClientAddress() },
      body: JSON.stringify({ name: "AuthStart", path }),
    });
    expect(response.status, `the queue marker was refused: ${await response.text()}`).toBe(204);
    paths.push(path);
    await expect
      .poll(() => queryD1In<{ n: number }>(site.stateDir, "SELECT count(*) AS n FROM marketing_events WHERE path = ?", path)[0]?.n, {
        message: `the queue marker ${path} was not handled within ${timeoutMs} ms`,
        timeout: timeoutMs,
        intervals: [50],
      })
      .toBe(1);
  }
  return paths;
}

/**
 * The consumer's failures in a stretch of the site's log: each one means a message will be tried
 * again and, after its last try, dead-lettered (lib/queue/dispatch.server.ts logs these events; the
 * local queue logs the move to the dead-letter queue).
 */
export function consumerRetries(log: string): string[] {
  return log.split("\n").filter((line) => /"event":"(queue_message|marketing_events|usage_batch|usage_message)_failed"|to dead letter queue/.test(line));
}
