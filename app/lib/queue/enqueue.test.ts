// enqueue: one encoding for every message, and the queue's batch limits (100 messages, 256 KB a
// sendBatch) kept whatever the producer hands it.
import { describe, expect, it } from "vitest";
import { enqueue, usageReportsMessages, v8Size } from "./enqueue";
import type { MarketingEventMessage, OutgoingMessage } from "./messages";

type Call = { method: "send" | "sendBatch"; bodies: unknown[]; contentTypes: Array<string | undefined> };

function fakeQueue() {
  const calls: Call[] = [];
  const queue = {
    async send(body: unknown, options?: QueueSendOptions) {
      calls.push({ method: "send", bodies: [body], contentTypes: [options?.contentType] });
    },
    async sendBatch(messages: Iterable<MessageSendRequest<unknown>>) {
      const list = [...messages];
      calls.push({ method: "sendBatch", bodies: list.map((m) => m.body), contentTypes: list.map((m) => m.contentType) });
    },
  } as unknown as Queue;
  return { queue, calls };
}

const event = (path: string): MarketingEventMessage => ({ type: "marketing.event", name: "ViewContent", occurredAt: 1, userId: null, path, dedupeKey: null });

describe("enqueue", () => {
  it("sends one message with send(), several with sendBatch(), all in V8's format", async () => {
    const { queue, calls } = fakeQueue();
    await enqueue(queue, event("/one"));
    await enqueue(queue, [event("/a"), event("/b")]);
    await enqueue(queue, []);
    expect(calls.map((c) => [c.method, c.bodies.length])).toEqual([
      ["send", 1],
      ["sendBatch", 2],
    ]);
    expect(calls.flatMap((c) => c.contentTypes)).toEqual(["v8", "v8", "v8"]);
  });

  it("keeps each sendBatch within 100 messages and 250 KB, in the order given", async () => {
    const { queue, calls } = fakeQueue();
    const many = Array.from({ length: 250 }, (_, i) => event(`/${i}`));
    await enqueue(queue, many);
    expect(calls.map((c) => c.bodies.length)).toEqual([100, 100, 50]);
    expect(calls.flatMap((c) => c.bodies)).toEqual(many);

    const large = (i: number): OutgoingMessage => ({ type: "usage.reports", userId: "u", receivedAt: 1, reports: [{ blob: `${i}${"x".repeat(60_000)}` }] });
    const { queue: second, calls: sent } = fakeQueue();
    await enqueue(second, [large(1), large(2), large(3), large(4), large(5)]);
    for (const call of sent) expect(call.bodies.reduce<number>((n, b) => n + v8Size(b) + 100, 0)).toBeLessThanOrEqual(250 * 1024);
    expect(sent.map((c) => c.bodies.length)).toEqual([4, 1]);
  });

  it("counts text beyond Latin-1 at two bytes a character", () => {
    expect(v8Size("ab")).toBe(4);
    expect(v8Size("é")).toBe(3);
    expect(v8Size("😀")).toBe(8);
  });
});

describe("usageReportsMessages", () => {
  it("puts a request's reports in one message, split only past 120 KB", () => {
    const head = { userId: "u", receivedAt: 1, deviceId: null, country: null };
    expect(usageReportsMessages(head, [{ a: 1 }, { a: 2 }])).toEqual([{ type: "usage.reports", ...head, reports: [{ a: 1 }, { a: 2 }] }]);
    const big = Array.from({ length: 20 }, (_, i) => ({ i, metadata: "x".repeat(8_000) }));
    const messages = usageReportsMessages(head, big);
    expect(messages.length).toBe(2);
    expect(messages.flatMap((m) => m.reports)).toEqual(big);
    for (const m of messages) expect(v8Size(m.reports)).toBeLessThanOrEqual(120 * 1024);
  });
});
