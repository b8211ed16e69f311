CREATE TABLE `attempt_counters` (
	`key` text PRIMARY KEY NOT NULL,
	`count` integer NOT NULL,
	`expires_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `attempt_counters_expiry_idx` ON `attempt_counters` (`expires_at`);--> statement-breakpoint
CREATE TABLE `checkout_sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`url` text NOT NULL,
	`expires_at` integer NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `checkout_sessions_user_idx` ON `checkout_sessions` (`user_id`,`created_at`);--> statement-breakpoint
-- D1 runs each migration in a transaction and ignores foreign_keys=OFF; deferring the checks
-- to the commit lets the audit_log rebuild keep its foreign keys.
PRAGMA defer_foreign_keys = on;--> statement-breakpoint
CREATE TABLE `__new_audit_log` (
	`id` text PRIMARY KEY NOT NULL,
	`actor_user_id` text,
	`target_user_id` text,
	`action` text NOT NULL,
	`details` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`actor_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`target_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
INSERT INTO `__new_audit_log`("id", "actor_user_id", "target_user_id", "action", "details", "created_at") SELECT "id", "actor_user_id", "target_user_id", "action", "details", "created_at" FROM `audit_log`;--> statement-breakpoint
DROP TABLE `audit_log`;--> statement-breakpoint
ALTER TABLE `__new_audit_log` RENAME TO `audit_log`;--> statement-breakpoint
CREATE INDEX `audit_log_target_idx` ON `audit_log` (`target_user_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `__new_model_usage` (
	`id` text NOT NULL,
	`user_id` text NOT NULL,
	`model_name` text NOT NULL,
	`model_provider` text NOT NULL,
	`request_type` text NOT NULL,
	`tokens_used` integer NOT NULL,
	`tokens_input` integer NOT NULL,
	`tokens_output` integer NOT NULL,
	`cost_micros` integer NOT NULL,
	`request_duration_ms` integer NOT NULL,
	`success` integer NOT NULL,
	`error_message` text,
	`metadata` text,
	`conversation_id` text,
	`app_version` text,
	`app_instance_id` text,
	`occurred_at` integer NOT NULL,
	`received_at` integer NOT NULL,
	`ingest_batch` text,
	PRIMARY KEY(`user_id`, `id`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `__new_model_usage`("id", "user_id", "model_name", "model_provider", "request_type", "tokens_used", "tokens_input", "tokens_output", "cost_micros", "request_duration_ms", "success", "error_message", "metadata", "conversation_id", "app_version", "app_instance_id", "occurred_at", "received_at", "ingest_batch") SELECT "id", "user_id", "model_name", "model_provider", "request_type", "tokens_used", "tokens_input", "tokens_output", "cost_micros", "request_duration_ms", "success", "error_message", "metadata", "conversation_id", "app_version", "app_instance_id", "occurred_at", "received_at", "ingest_batch" FROM `model_usage`;--> statement-breakpoint
DROP TABLE `model_usage`;--> statement-breakpoint
ALTER TABLE `__new_model_usage` RENAME TO `model_usage`;--> statement-breakpoint
CREATE INDEX `model_usage_user_time_idx` ON `model_usage` (`user_id`,`occurred_at`);--> statement-breakpoint
CREATE INDEX `model_usage_ingest_idx` ON `model_usage` (`ingest_batch`);--> statement-breakpoint
ALTER TABLE `one_time_tokens` ADD `proof_hash` text;