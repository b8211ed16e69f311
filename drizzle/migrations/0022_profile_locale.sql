ALTER TABLE `user_profiles` ADD `time_zone_confirmed_at` integer;--> statement-breakpoint
ALTER TABLE `user_profiles` ADD `locale` text;