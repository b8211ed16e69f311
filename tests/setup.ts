import { applyD1Migrations, env } from "cloudflare:test";
import { trackQueue } from "./queue-tracker";

await applyD1Migrations(env.DB, (env as unknown as { TEST_MIGRATIONS: Parameters<typeof applyD1Migrations>[1] }).TEST_MIGRATIONS);
// A test's own sends count too (queueSettled in tests/queue-tracker.ts).
trackQueue(env as unknown as { EVENTS: Queue });
