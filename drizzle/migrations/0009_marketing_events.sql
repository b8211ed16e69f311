CREATE TABLE `marketing_events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`occurred_at` integer NOT NULL,
	`user_id` text,
	`path` text,
	`dedupe_key` text,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `marketing_events_dedupe_key_unique` ON `marketing_events` (`dedupe_key`);--> statement-breakpoint
CREATE INDEX `marketing_events_name_time_idx` ON `marketing_events` (`name`,`occurred_at`);