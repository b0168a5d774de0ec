-- Hardening: sign-in codes with atomic attempts (auth_codes, replacing email_verifications, pending codes
-- carried over), teammate invitations, session metadata, one default business per owner (duplicates
-- cleared first), the committed idempotency record, and outbox/mail failure states.
CREATE TABLE `auth_codes` (
	`id` text PRIMARY KEY NOT NULL,
	`purpose` text NOT NULL,
	`email` text NOT NULL,
	`user_id` text,
	`code_hash` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`expires_at` integer NOT NULL,
	`consumed_at` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `auth_codes_email_idx` ON `auth_codes` (`email`,`purpose`,`created_at`);--> statement-breakpoint
CREATE INDEX `auth_codes_user_idx` ON `auth_codes` (`user_id`,`purpose`);--> statement-breakpoint
INSERT INTO `auth_codes` (`id`, `purpose`, `email`, `user_id`, `code_hash`, `attempts`, `expires_at`, `consumed_at`, `created_at`) SELECT v.`id`, 'verify_email', u.`email`, v.`user_id`, v.`code_hash`, v.`attempts`, v.`expires_at`, v.`consumed_at`, v.`created_at` FROM `email_verifications` v INNER JOIN `users` u ON u.`id` = v.`user_id`;--> statement-breakpoint
DROP TABLE `email_verifications`;--> statement-breakpoint
CREATE TABLE `teammate_invitations` (
	`id` text PRIMARY KEY NOT NULL,
	`business_id` text NOT NULL,
	`email` text NOT NULL,
	`invited_by_user_id` text NOT NULL,
	`status` text NOT NULL,
	`accepted_user_id` text,
	`expires_at` integer NOT NULL,
	`responded_at` integer,
	`last_op_id` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`business_id`) REFERENCES `businesses`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`invited_by_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`accepted_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `teammate_invitations_one_pending` ON `teammate_invitations` (`business_id`,`email`) WHERE status = 'pending';--> statement-breakpoint
CREATE INDEX `teammate_invitations_email_idx` ON `teammate_invitations` (`email`,`status`);--> statement-breakpoint
ALTER TABLE `users` ADD `last_op_id` text;--> statement-breakpoint
ALTER TABLE `sessions` ADD `last_seen_at` integer;--> statement-breakpoint
ALTER TABLE `sessions` ADD `ip_hash` text;--> statement-breakpoint
UPDATE `businesses` SET `is_default` = 0 WHERE `is_default` = 1 AND `id` <> (SELECT b2.`id` FROM `businesses` b2 WHERE b2.`user_id` = `businesses`.`user_id` AND b2.`is_default` = 1 ORDER BY b2.`created_at`, b2.`id` LIMIT 1);--> statement-breakpoint
CREATE UNIQUE INDEX `businesses_one_default_per_owner` ON `businesses` (`user_id`) WHERE is_default = 1;--> statement-breakpoint
ALTER TABLE `idempotency_keys` ADD `resource_type` text;--> statement-breakpoint
ALTER TABLE `idempotency_keys` ADD `resource_id` text;--> statement-breakpoint
ALTER TABLE `idempotency_keys` ADD `attempt` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE `idempotency_keys` ADD `attempt_started_at` integer;--> statement-breakpoint
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
