CREATE TABLE `usage_accounts` (
	`user_id` text PRIMARY KEY NOT NULL,
	`first_report_at` integer NOT NULL,
	`last_report_at` integer NOT NULL,
	`archived_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `usage_accounts_first_idx` ON `usage_accounts` (`first_report_at`);--> statement-breakpoint
CREATE INDEX `usage_accounts_archived_idx` ON `usage_accounts` (`archived_at`);--> statement-breakpoint
CREATE TABLE `usage_rollup` (
	`user_id` text NOT NULL,
	`date` text NOT NULL,
	`requests` integer NOT NULL,
	`tokens` integer NOT NULL,
	`cost_micros` integer NOT NULL,
	`version` integer NOT NULL,
	PRIMARY KEY(`user_id`, `date`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `usage_rollup_date_idx` ON `usage_rollup` (`date`);