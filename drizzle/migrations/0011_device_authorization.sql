CREATE TABLE `device_authorizations` (
	`id` text PRIMARY KEY NOT NULL,
	`device_code_hash` text NOT NULL,
	`user_code_hash` text NOT NULL,
	`client_id` text NOT NULL,
	`device_name` text NOT NULL,
	`platform` text NOT NULL,
	`app_version` text NOT NULL,
	`app_instance_id` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`user_id` text,
	`session_id` text,
	`interval_seconds` integer NOT NULL,
	`last_polled_at` integer,
	`slowed_at` integer,
	`approved_at` integer,
	`expires_at` integer NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `device_authorizations_device_code_hash_unique` ON `device_authorizations` (`device_code_hash`);--> statement-breakpoint
CREATE UNIQUE INDEX `device_authorizations_user_code_hash_unique` ON `device_authorizations` (`user_code_hash`);--> statement-breakpoint
CREATE INDEX `device_authorizations_expires_idx` ON `device_authorizations` (`expires_at`);--> statement-breakpoint
ALTER TABLE `model_usage` ADD `device_id` text;--> statement-breakpoint
ALTER TABLE `sessions` ADD `device_name` text;--> statement-breakpoint
ALTER TABLE `sessions` ADD `device_platform` text;--> statement-breakpoint
ALTER TABLE `sessions` ADD `app_version` text;--> statement-breakpoint
ALTER TABLE `sessions` ADD `app_instance_id` text;--> statement-breakpoint
ALTER TABLE `sessions` ADD `last_used_at` integer;--> statement-breakpoint
ALTER TABLE `sessions` ADD `last_country` text;