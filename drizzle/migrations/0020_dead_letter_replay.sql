ALTER TABLE `dead_letters` ADD `original` text;--> statement-breakpoint
CREATE INDEX `dead_letters_created_idx` ON `dead_letters` (`created_at`);