CREATE TABLE `minute_usage` (
	`user_id` text NOT NULL,
	`minute` integer NOT NULL,
	`total_requests` integer DEFAULT 0 NOT NULL,
	`total_tokens` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`user_id`, `minute`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `minute_usage_minute_idx` ON `minute_usage` (`minute`);