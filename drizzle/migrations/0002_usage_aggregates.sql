CREATE TABLE `budget_alerts` (
	`user_id` text NOT NULL,
	`kind` text NOT NULL,
	`period` text NOT NULL,
	`sent_at` integer NOT NULL,
	PRIMARY KEY(`user_id`, `kind`, `period`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `conversations` (
	`user_id` text NOT NULL,
	`month` text NOT NULL,
	`conversation_id` text NOT NULL,
	PRIMARY KEY(`user_id`, `month`, `conversation_id`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `hourly_usage` (
	`user_id` text NOT NULL,
	`date` text NOT NULL,
	`hour` integer NOT NULL,
	`total_requests` integer DEFAULT 0 NOT NULL,
	`total_tokens` integer DEFAULT 0 NOT NULL,
	`total_cost_micros` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`user_id`, `date`, `hour`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
DROP INDEX `secure_usage_reports_report_hash_unique`;--> statement-breakpoint
ALTER TABLE `secure_usage_reports` ADD `ingest_batch` text;--> statement-breakpoint
CREATE UNIQUE INDEX `secure_usage_reports_user_hash_idx` ON `secure_usage_reports` (`user_id`,`report_hash`);--> statement-breakpoint
CREATE INDEX `secure_usage_ingest_idx` ON `secure_usage_reports` (`ingest_batch`);--> statement-breakpoint
ALTER TABLE `daily_usage_summary` ADD `timed_requests` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `daily_usage_summary` ADD `last_used_at` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `model_usage` ADD `ingest_batch` text;--> statement-breakpoint
CREATE INDEX `model_usage_ingest_idx` ON `model_usage` (`ingest_batch`);