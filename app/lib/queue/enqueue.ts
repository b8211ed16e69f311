// The one way onto the "events" queue. Every producer (the site's routes and lib, and the
// consumer when it sends a report again alone) calls enqueue, so every message travels in the
// same encoding and within the same limits.
import type { OutgoingMessage, UsageReportsMessage } from "./messages";

// Queues accept at most 100 messages and 256 KB per sendBatch call.
const MAX_MESSAGES = 100;
const MAX_BATCH_BYTES = 250 * 1024;
// Queues take at most 128 KB a message.
const MAX_MESSAGE_BYTES = 120 * 1024;

// One encoding for every message: V8's structured-clone format, the Workers default. Usage
// reports are sent on every API request, and V8's format is the one neither side stringifies and
// parses again; a test's own `env.EVENTS.send(body)` uses the same default. A single message is
// one send() (the local queue parses a sendBatch's envelope as JSON and its bodies as base64;
// production treats both alike).
const CONTENT_TYPE = "v8" satisfies QueueContentType;

/** Sends one message, or several in as few calls as the queue's batch limits allow. */
export async function enqueue(queue: Queue, messages: OutgoingMessage | OutgoingMessage[]): Promise<void> {
  const bodies = Array.isArray(messages) ? messages : [messages];
  if (bodies.length === 0) return;
  if (bodies.length === 1) {
    await queue.send(bodies[0], { contentType: CONTENT_TYPE });
    return;
  }
  let batch: MessageSendRequest[] = [];
  let bytes = 0;
  for (const body of bodies) {
    // Each message's envelope in the batch counts too.
    const size = v8Size(body) + 100;
    if (batch.length === MAX_MESSAGES || (batch.length > 0 && bytes + size > MAX_BATCH_BYTES)) {
      await queue.sendBatch(batch);
      batch = [];
      bytes = 0;
    }
    batch.push({ body, contentType: CONTENT_TYPE });
    bytes += size;
  }
  if (batch.length) await queue.sendBatch(batch);
}

// V8 stores a string with any character beyond Latin-1 at two bytes a character (JSON escapes those
// below a space): its JSON length, doubled then, bounds its size in the queue.
const TWO_BYTE = /[^ -\u00ff]/;
export function v8Size(value: unknown): number {
  const json = JSON.stringify(value) ?? "";
  return TWO_BYTE.test(json) ? json.length * 2 : json.length;
}

/**
 * One account's reports of one request as usage.reports messages: one, unless together they would
 * pass a message's size (reports carry up to 8 KB of metadata each).
 */
export function usageReportsMessages(head: Omit<UsageReportsMessage, "type" | "reports">, reports: unknown[]): UsageReportsMessage[] {
  const messages: UsageReportsMessage[] = [];
  let current: unknown[] = [];
  let bytes = 0;
  for (const report of reports) {
    const size = v8Size(report);
    if (current.length > 0 && bytes + size > MAX_MESSAGE_BYTES) {
      messages.push({ type: "usage.reports", ...head, reports: current });
      current = [];
      bytes = 0;
    }
    current.push(report);
    bytes += size;
  }
  if (current.length) messages.push({ type: "usage.reports", ...head, reports: current });
  return messages;
}
