ALTER TABLE `outbox` ADD `channel` text DEFAULT 'email' NOT NULL;--> statement-breakpoint
ALTER TABLE `sessions` ADD `last_seen_at` integer;--> statement-breakpoint
ALTER TABLE `user_profiles` ADD `phone_code_sent_at` integer;--> statement-breakpoint
ALTER TABLE `user_profiles` ADD `pending_email` text;--> statement-breakpoint
CREATE UNIQUE INDEX `user_profiles_username_lower_idx` ON `user_profiles` (lower("username"));