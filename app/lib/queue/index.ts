// lib/queue: the messages of the "events" queue (messages.ts) and the one way to send them
// (enqueue.ts). What the consumer does with each message is dispatch.server.ts, imported by the
// consumer Worker alone.
export * from "./enqueue";
export * from "./messages";
