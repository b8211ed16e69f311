CREATE TABLE `team_subscriptions` (
	`id` text PRIMARY KEY NOT NULL,
	`team_id` text NOT NULL,
	`status` text NOT NULL,
	`stripe_subscription_id` text,
	`stripe_customer_id` text,
	`stripe_price_id` text,
	`quantity` integer NOT NULL,
	`current_period_start` integer,
	`current_period_end` integer,
	`trial_start` integer,
	`trial_end` integer,
	`cancel_at` integer,
	`cancel_at_period_end` integer DEFAULT false NOT NULL,
	`canceled_at` integer,
	`ended_at` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`team_id`) REFERENCES `teams`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `team_subscriptions_team_id_unique` ON `team_subscriptions` (`team_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `team_subscriptions_stripe_subscription_id_unique` ON `team_subscriptions` (`stripe_subscription_id`);