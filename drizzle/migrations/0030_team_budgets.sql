-- Issue 50 (ADR 0039): a team's shared budget and its members' caps, decided by the team's ledger.
CREATE TABLE `team_budgets` (
	`team_id` text PRIMARY KEY NOT NULL,
	`monthly_budget` real NOT NULL,
	`daily_budget` real NOT NULL,
	`alert_thresholds` text NOT NULL,
	`notifications_enabled` integer NOT NULL,
	`monthly_hard_cap` integer DEFAULT false NOT NULL,
	`daily_hard_cap` integer DEFAULT false NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`team_id`) REFERENCES `teams`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `team_member_caps` (
	`team_id` text NOT NULL,
	`user_id` text NOT NULL,
	`monthly_limit_usd` real NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	PRIMARY KEY(`team_id`, `user_id`),
	FOREIGN KEY (`team_id`) REFERENCES `teams`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
