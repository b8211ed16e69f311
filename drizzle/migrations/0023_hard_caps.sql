CREATE TABLE `budget_caps` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`kind` text NOT NULL,
	`target` text NOT NULL,
	`model_name` text,
	`model_provider` text,
	`device_id` text,
	`limit_usd` real NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `budget_caps_target_idx` ON `budget_caps` (`user_id`,`target`);--> statement-breakpoint
ALTER TABLE `budgets` ADD `monthly_hard_cap` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `budgets` ADD `daily_hard_cap` integer DEFAULT false NOT NULL;