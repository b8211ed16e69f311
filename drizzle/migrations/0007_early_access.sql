ALTER TABLE `activation_keys` ADD `sent_to` text;--> statement-breakpoint
ALTER TABLE `activation_keys` ADD `revoked_at` integer;--> statement-breakpoint
ALTER TABLE `activation_keys` ADD `revoked_by` text REFERENCES users(id) ON DELETE set null;--> statement-breakpoint
CREATE INDEX `activation_keys_created_idx` ON `activation_keys` (`created_at`);--> statement-breakpoint
ALTER TABLE `waitlist` ADD `granted_at` integer;--> statement-breakpoint
ALTER TABLE `waitlist` ADD `referred_by` text;