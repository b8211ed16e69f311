-- Drops D1's usage tables: usage lives in each account's ledger (ADR 0020). Refuses while any usage
-- row that the move (npm run usage:move) has not taken into the ledgers remains: the INSERT fails
-- its CHECK, the migration's batch (one transaction) rolls back, nothing is dropped and the
-- migration stays pending. Order: docs/decisions/0020-usage-ledger.md (part 2).
CREATE TABLE `_legacy_usage_guard` (`empty` integer NOT NULL CHECK (`empty` = 1));--> statement-breakpoint
INSERT INTO `_legacy_usage_guard` (`empty`) SELECT NOT EXISTS (SELECT 1 FROM `model_usage`) AND NOT EXISTS (SELECT 1 FROM `secure_usage_reports`) AND NOT EXISTS (SELECT 1 FROM `budget_alerts`);--> statement-breakpoint
DROP TABLE `_legacy_usage_guard`;--> statement-breakpoint
DROP TABLE `budget_alerts`;--> statement-breakpoint
DROP TABLE `conversations`;--> statement-breakpoint
DROP TABLE `daily_usage_summary`;--> statement-breakpoint
DROP TABLE `hourly_usage`;--> statement-breakpoint
DROP TABLE `minute_usage`;--> statement-breakpoint
DROP TABLE `model_usage`;--> statement-breakpoint
DROP TABLE `secure_usage_reports`;