// The dead-letter redaction, rule by rule: one full message of every kind the queue's schema knows,
// every field filled with something recognisable, and nothing of it may survive but the kind, the
// account and a Stripe event's id and type. A new kind of message fails here until it has a
// sample and a rule.
import { describe, expect, it } from "vitest";
import { QUEUE_MESSAGE_TYPES, type QueueMessageType, REDACTION_RULES, redactDeadLetter } from "./queue-redaction";
import { queueMessageSchema } from "./queue";

const USER_ID = "3f0c7a52-9a1e-4c1b-8d2f-6b5e4a3c2d1e";
const HASH = "pbkdf2_sha256$100000$c2FsdHNhbHRzYWx0c2FsdA$aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNoaGFzaA";
const ANSWER_HASH = "pbkdf2_sha256$100000$YW5zd2Vyc2FsdGFuc3dlcg$YW5zd2VyaGFzaGFuc3dlcmhhc2hhbnN3ZXI";
const NOW = 1_790_000_000_000;

// Every field of every kind, with values that must not be kept (except those named in KEPT).
const SAMPLES: Record<QueueMessageType, Record<string, unknown>> = {
  "mail.send": {
    type: "mail.send",
    id: "0b6f7a1e-2c3d-4e5f-8a9b-0c1d2e3f4a5b",
    to: "victim@example.com",
    subject: "Reset your Modelify password",
    text: "Choose a new password here:\nhttp://localhost/auth/callback?type=recovery&token=resettoken0123456789",
    links: ["http://localhost/auth/callback?type=recovery&token=resettoken0123456789"],
    replyTo: "sender@example.com",
  },
  "sms.send": {
    type: "sms.send",
    id: "1c7a8b2f-3d4e-4f60-9b0c-1d2e3f4a5b6c",
    to: "+15551234567",
    text: "Your Modelify verification code is 654321.",
    links: ["http://localhost/verify-phone?code=654321&phone=%2B15551234567"],
  },
  "stripe.event": {
    type: "stripe.event",
    eventId: "evt_1Abc",
    eventType: "customer.subscription.updated",
    subscriptionId: "sub_hidden123",
    customerId: "cus_hidden123",
    userId: USER_ID,
  },
  "usage.report": {
    type: "usage.report",
    userId: USER_ID,
    receivedAt: NOW,
    deviceId: "device-session-77",
    country: "GB",
    report: {
      report_id: "2d8b9c30-4e5f-4a71-8c1d-2e3f4a5b6c7d",
      model_name: "gpt-secret-model",
      model_provider: "openai-hidden",
      request_type: "chat",
      tokens_used: 1500,
      tokens_input: 1000,
      tokens_output: 500,
      cost_usd: 0.0125,
      request_duration_ms: 1200,
      success: false,
      error_message: "prompt said: my password is hunter2",
      occurred_at: NOW,
      metadata: { conversation_id: "conversation-secret" },
      app_version: "1.2.3-secret",
      app_instance_id: "install-secret",
    },
  },
  "usage.reports": {
    type: "usage.reports",
    userId: USER_ID,
    receivedAt: NOW,
    deviceId: "device-session-78",
    country: "FR",
    reports: [
      {
        report_id: "3e9c0d41-5f60-4b82-9d2e-3f4a5b6c7d8e",
        model_name: "gpt-secret-model-b",
        model_provider: "anthropic-hidden",
        request_type: "chat",
        tokens_used: 1500,
        tokens_input: 1000,
        tokens_output: 500,
        cost_usd: 0.0125,
        request_duration_ms: 1200,
        success: false,
        error_message: "prompt said: my other password is hunter3",
        occurred_at: NOW,
        metadata: { conversation_id: "conversation-secret-b" },
        app_version: "1.2.4-secret",
        app_instance_id: "install-secret-b",
      },
    ],
  },
  "usage.secure": {
    type: "usage.secure",
    userId: USER_ID,
    receivedAt: NOW,
    report: {
      report_hash: "secure-report-hash-0123456789",
      model_name: "model-secret-a",
      provider: "provider-secret",
      tokens_used: 300,
      cost: 0.03,
      request_count: 3,
      success_count: 2,
      error_count: 1,
      report_timestamp: NOW - 60_000,
      app_version: "9.9.9-secret",
      app_instance_id: "instance-secret",
    },
  },
  "account.signup": {
    type: "account.signup",
    id: "4fa0e152-6071-4c93-8e3f-4a5b6c7d8e9f",
    email: "newcomer@example.com",
    passwordHash: HASH,
    proofHash: "9f".repeat(32),
    metadata: {
      first_name: "Ada",
      last_name: "Lovelace",
      initial: "B",
      phone_number: "+15557654321",
      security_question: "first-pet",
      security_answer_hash: ANSWER_HASH,
    },
    origin: "http://localhost",
    submittedAt: NOW,
  },
  "account.recovery": {
    type: "account.recovery",
    id: "50b1f263-7182-4da4-9f40-5b6c7d8e9fa0",
    email: "forgetful@example.com",
    origin: "http://localhost",
  },
  "account.export": {
    type: "account.export",
    exportId: "61c2f374-8293-4eb5-a051-6c7d8e9fa0b1",
    userId: USER_ID,
    origin: "http://localhost",
  },
  "marketing.event": {
    type: "marketing.event",
    name: "Lead",
    occurredAt: NOW,
    userId: USER_ID,
    path: "/pricing?utm=secret-campaign",
    dedupeKey: "Lead:secret-dedupe",
  },
  "webhook.deliver": {
    type: "webhook.deliver",
    userId: USER_ID,
    webhookId: "4fa0e152-6071-4c93-8e3f-4a5b6c7d8e9f",
    event: {
      id: "5ab1f263-7182-4da4-9f40-5b6c7d8e9fa0",
      type: "model.error_rate",
      created_at: "2026-11-30T13:05:00.000Z",
      time_zone: "Australia/Sydney",
      data: {
        rule_id: "rule-secret",
        model: "gpt-secret-model-c",
        provider: "openai-hidden",
        threshold: 25,
        value: 40.5,
        requests: 123456,
        window_start: "2026-11-30T12:00:00.000Z",
        window_end: "2026-11-30T13:00:00.000Z",
      },
    },
  },
};

// What a dead letter may keep of a message, by kind (besides the kind itself).
const KEPT: Partial<Record<QueueMessageType, string[]>> = {
  "stripe.event": ["userId", "eventId", "eventType"],
  "usage.report": ["userId"],
  "usage.reports": ["userId"],
  "usage.secure": ["userId"],
  "marketing.event": ["userId"],
  "account.export": ["userId"],
  "webhook.deliver": ["userId"],
};

/** Every string and long number in a value, with the key it sits under (a digit or two would match anywhere). */
function leaves(value: unknown, key = ""): Array<{ key: string; value: string }> {
  if (typeof value === "string" && value.length >= 2) return [{ key, value }];
  if (typeof value === "number" && String(value).length >= 6) return [{ key, value: String(value) }];
  if (Array.isArray(value)) return value.flatMap((v) => leaves(v, key));
  if (typeof value === "object" && value !== null) return Object.entries(value).flatMap(([k, v]) => leaves(v, k));
  return [];
}

const SENT_AT = 1_700_000_000_123;

describe("dead-letter redaction", () => {
  it("has a rule and a sample for every kind of queue message, read from the schema", () => {
    expect(QUEUE_MESSAGE_TYPES.length).toBeGreaterThanOrEqual(8);
    expect(Object.keys(REDACTION_RULES).sort()).toEqual([...QUEUE_MESSAGE_TYPES].sort());
    expect(Object.keys(SAMPLES).sort()).toEqual([...QUEUE_MESSAGE_TYPES].sort());
  });

  for (const type of QUEUE_MESSAGE_TYPES) {
    it(`keeps only the kind, the account and why of ${type}`, () => {
      const sample = SAMPLES[type];
      // The sample is a real message: every field the schema knows reaches the rule.
      expect(queueMessageSchema.safeParse(sample).error?.issues).toBeUndefined();
      const redacted = redactDeadLetter(sample, { reason: "retries_exhausted", sentAt: SENT_AT });
      const stored = JSON.stringify(redacted);
      const kept = new Set(["type", ...(KEPT[type] ?? [])]);
      for (const leaf of leaves(sample)) {
        // Only the message's own type is kept: a nested one (a webhook event's) is its content.
        if (kept.has(leaf.key) && (leaf.key !== "type" || leaf.value === type)) expect(stored, `${type}.${leaf.key} is kept`).toContain(leaf.value);
        else expect(stored, `${type}.${leaf.key} = ${leaf.value}`).not.toContain(leaf.value);
      }
      expect(redacted).toMatchObject({ kind: type, reason: "retries_exhausted", error: null, sentAt: SENT_AT });
      expect(redacted.userId).toBe(KEPT[type]?.includes("userId") ? USER_ID : null);
    });
  }

  it("keeps a Stripe event's id and type to replay it", () => {
    expect(redactDeadLetter(SAMPLES["stripe.event"], { reason: "retries_exhausted", sentAt: null })).toEqual({
      kind: "stripe.event",
      userId: USER_ID,
      reason: "retries_exhausted",
      error: null,
      sentAt: null,
      stripeEvent: { id: "evt_1Abc", type: "customer.subscription.updated" },
    });
  });
});

describe("dead-letter redaction of a malformed body", () => {
  it("names the wrong field and its kind, never what the body held", () => {
    const mail = { ...SAMPLES["mail.send"], to: "not-an-address" };
    const redacted = redactDeadLetter(mail, { reason: "malformed", sentAt: SENT_AT });
    expect(redacted).toEqual({ kind: "mail.send", userId: null, reason: "malformed", error: "to: invalid_format", sentAt: SENT_AT });
  });

  it("keeps an id-shaped account of a malformed message, and nothing else it says", () => {
    const usage = { type: "usage.report", userId: USER_ID, receivedAt: -1, report: { error_message: "secret words" } };
    const redacted = redactDeadLetter(usage, { reason: "malformed", sentAt: null });
    expect(redacted).toMatchObject({ kind: "usage.report", userId: USER_ID, reason: "malformed" });
    expect(JSON.stringify(redacted)).not.toContain("secret words");
    const forged = redactDeadLetter({ type: "usage.report", userId: "victim@example.com https://evil.example" }, { reason: "malformed", sentAt: null });
    expect(forged.userId).toBeNull();
  });

  it("calls an unknown kind unknown and drops bodies that are not objects", () => {
    for (const body of [
      { type: "mail.send https://evil.example/?token=abc", text: "hello" },
      "token=abc https://evil.example",
      ["https://evil.example"],
      null,
      undefined,
      42,
    ]) {
      const redacted = redactDeadLetter(body, { reason: "malformed", sentAt: null });
      expect(redacted.kind).toBe("unknown");
      expect(redacted.userId).toBeNull();
      expect(JSON.stringify(redacted)).not.toMatch(/evil|token|hello/);
    }
  });

  it("does not keep a record key the sender chose in the error", () => {
    const key = "k".repeat(150);
    const usage = { ...SAMPLES["usage.report"], report: { ...(SAMPLES["usage.report"].report as object), metadata: { [key]: 1 } } };
    const redacted = redactDeadLetter(usage, { reason: "malformed", sentAt: null });
    expect(redacted.kind).toBe("usage.report");
    expect(redacted.error).toBeTruthy();
    expect(redacted.error).not.toContain(key);
  });
});
