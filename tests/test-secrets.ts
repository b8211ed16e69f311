// The secrets the Workers tests run with (vitest.config.ts binds them), in one place so that the
// log scan (scripts/log-scan.ts) can look for each value in the suite's output: none may appear.
// Not real secrets: they exist only in tests.
export const TEST_SECRETS = {
  STRIPE_SECRET_KEY: "sk_test_modelify_vitest",
  STRIPE_WEBHOOK_SECRET: "whsec_test_modelify_vitest",
  // The operators' token of /api/ops/* (the usage move's test).
  OPS_TOKEN: "ops-token-for-tests-0123456789abcdef",
  // Salts the account hashes of the logs.
  LOG_SALT: "log-salt-for-tests-0123456789abcdef",
  // Encrypts the originals kept beside dead letters (ADR 0024).
  DEAD_LETTER_KEY: "dead-letter-key-for-tests-0123456789abcdef",
  // Encrypts the alert webhooks' signing secrets (ADR 0033).
  WEBHOOK_KEY: "webhook-key-for-tests-0123456789abcdef",
} as const;
