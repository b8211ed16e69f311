-- Issue 50 (ADR 0038): a device key reports under one context, personal (null) or a team. drizzle-kit
-- writes ADD COLUMN … REFERENCES without its ON DELETE; a deleted team leaves its keys personal.
ALTER TABLE `device_authorizations` ADD `team_id` text REFERENCES teams(id) ON DELETE SET NULL;--> statement-breakpoint
ALTER TABLE `sessions` ADD `team_id` text REFERENCES teams(id) ON DELETE SET NULL;
