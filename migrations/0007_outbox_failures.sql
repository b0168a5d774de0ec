ALTER TABLE `email_outbox` ADD `sensitive` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `email_outbox` ADD `attempts` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `email_outbox` ADD `last_error` text;--> statement-breakpoint
ALTER TABLE `email_outbox` ADD `next_attempt_at` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX `email_outbox_due_idx` ON `email_outbox` (`status`,`next_attempt_at`);--> statement-breakpoint
ALTER TABLE `outbox_events` ADD `status` text DEFAULT 'queued' NOT NULL;--> statement-breakpoint
ALTER TABLE `outbox_events` ADD `attempts` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `outbox_events` ADD `last_error` text;--> statement-breakpoint
ALTER TABLE `outbox_events` ADD `next_attempt_at` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
DROP INDEX `outbox_events_unsent_idx`;--> statement-breakpoint
CREATE INDEX `outbox_events_due_idx` ON `outbox_events` (`status`,`next_attempt_at`);--> statement-breakpoint
UPDATE `outbox_events` SET `status` = 'sent' WHERE `sent_at` IS NOT NULL;--> statement-breakpoint
UPDATE `outbox_events` SET `next_attempt_at` = `created_at` + 60000 WHERE `sent_at` IS NULL;--> statement-breakpoint
UPDATE `email_outbox` SET `next_attempt_at` = `created_at` + 120000 WHERE `status` = 'queued';
