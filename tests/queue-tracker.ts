// Knows when the events queue is quiet, so that a test waits for the consumer to have handled
// everything enqueued before it ("nothing more will arrive") instead of sleeping for a guess.
//
// Every message is counted from its send (the EVENTS binding is wrapped once, in tests/setup.ts,
// so both the app's sends and a test's own go through it) until its last handling: acknowledged
// by the consumer, or acknowledged by the dead-letter consumer after its retries ran out. A retry
// keeps it counted. Messages a handler enqueues while it runs are counted before the message
// that caused them is done, so the count never reaches zero half-way through a chain.

let pending = 0;

function settle(count: number) {
  pending -= count;
  if (pending < 0) throw new Error(`queue tracker: ${-pending} more messages handled than sent (a send that bypassed the tracked binding?)`);
}

const TRACKED = Symbol("tracked");

/**
 * Makes the environment's EVENTS binding count what is sent through it. Changes the object in
 * place (once), so the test's `env` and the one the Worker's handlers get, the same object, agree.
 */
export function trackQueue(env: { EVENTS: Queue }): void {
  if ((env.EVENTS as Queue & { [TRACKED]?: true })[TRACKED]) return;
  env.EVENTS = trackedQueue(env.EVENTS);
}

function trackedQueue(queue: Queue): Queue {
  const tracked = {
    async send(message: unknown, options?: QueueSendOptions) {
      pending += 1;
      try {
        return await queue.send(message, options);
      } catch (error) {
        settle(1);
        throw error;
      }
    },
    async sendBatch(messages: Iterable<MessageSendRequest<unknown>>, options?: QueueSendBatchOptions) {
      const list = [...messages];
      pending += list.length;
      try {
        return await queue.sendBatch(list, options);
      } catch (error) {
        settle(list.length);
        throw error;
      }
    },
    metrics: () => queue.metrics(),
    [TRACKED]: true,
  };
  return tracked as unknown as Queue;
}

/**
 * Runs the consumer on a batch and counts its outcome: acknowledged messages are done; retried
 * ones stay counted (they come back, or go to the dead-letter queue, whose consumer acknowledges
 * them there). A handler that returns without deciding acknowledges the rest; one that throws
 * retries it.
 */
export async function trackBatch(batch: MessageBatch<unknown>, run: () => Promise<void>): Promise<void> {
  const decided = new Map<string, "ack" | "retry">();
  for (const message of batch.messages) {
    const { ack, retry } = message;
    Object.assign(message, {
      ack: () => {
        if (!decided.has(message.id)) decided.set(message.id, "ack");
        ack.call(message);
      },
      retry: (options?: QueueRetryOptions) => {
        if (!decided.has(message.id)) decided.set(message.id, "retry");
        retry.call(message, options);
      },
    });
  }
  const { ackAll, retryAll } = batch;
  Object.assign(batch, {
    ackAll: () => {
      for (const m of batch.messages) if (!decided.has(m.id)) decided.set(m.id, "ack");
      ackAll.call(batch);
    },
    retryAll: (options?: QueueRetryOptions) => {
      for (const m of batch.messages) if (!decided.has(m.id)) decided.set(m.id, "retry");
      retryAll.call(batch, options);
    },
  });
  let failed = false;
  try {
    await run();
  } catch (error) {
    failed = true;
    throw error;
  } finally {
    // A message on the dead-letter queue was counted once, when it was sent to the main queue,
    // and stayed counted through its retries: its acknowledgement there is its end.
    settle(batch.messages.filter((m) => (decided.get(m.id) ?? (failed ? "retry" : "ack")) === "ack").length);
  }
}

/**
 * Resolves once every message sent so far has been handled for the last time (the queue is
 * quiet); rejects after `timeoutMs` with how many are still on their way. It looks at the count
 * every few milliseconds: the consumer runs in another request's context, and workerd does not
 * resume a promise across request contexts, so it cannot simply wake this one.
 */
export async function queueSettled(timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (pending > 0) {
    if (Date.now() > deadline) throw new Error(`queue not settled within ${timeoutMs} ms: ${pending} message(s) still pending`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** How many messages are on their way (for diagnostics). */
export const pendingMessages = () => pending;
