CREATE TABLE `releases` (
	`id` text PRIMARY KEY NOT NULL,
	`option_id` text NOT NULL,
	`platform` text NOT NULL,
	`architecture` text NOT NULL,
	`version` text NOT NULL,
	`file_name` text NOT NULL,
	`r2_key` text NOT NULL,
	`byte_size` integer NOT NULL,
	`sha256` text NOT NULL,
	`recommended` integer DEFAULT false NOT NULL,
	`demo` integer DEFAULT false NOT NULL,
	`published_by` text,
	`published_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `releases_option_version_idx` ON `releases` (`option_id`,`version`);--> statement-breakpoint
CREATE INDEX `releases_option_published_idx` ON `releases` (`option_id`,`published_at`);--> statement-breakpoint
ALTER TABLE `download_history` ADD `release_id` text REFERENCES releases(id) ON DELETE set null;