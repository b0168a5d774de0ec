CREATE TABLE `shift_templates` (
	`id` text PRIMARY KEY NOT NULL,
	`business_id` text NOT NULL,
	`label` text NOT NULL,
	`days_of_week` text NOT NULL,
	`shift_in` text NOT NULL,
	`shift_out` text NOT NULL,
	`shiftrole_id` integer NOT NULL,
	`hourly_rate_minor` integer NOT NULL,
	`currency_id` text NOT NULL,
	`is_flexible` integer DEFAULT false NOT NULL,
	`is_broadcast` integer DEFAULT true NOT NULL,
	`default_shifter_id` text,
	`note` text,
	`is_active` integer DEFAULT true NOT NULL,
	`frequency` text,
	`created_by_user_id` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`business_id`) REFERENCES `businesses`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`shiftrole_id`) REFERENCES `shift_roles`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`currency_id`) REFERENCES `currencies`(`code`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`default_shifter_id`) REFERENCES `shifters`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `shift_templates_business_idx` ON `shift_templates` (`business_id`);--> statement-breakpoint
CREATE TABLE `outbox_events` (
	`id` text PRIMARY KEY NOT NULL,
	`topic` text NOT NULL,
	`body` text NOT NULL,
	`created_at` integer NOT NULL,
	`sent_at` integer
);
--> statement-breakpoint
CREATE INDEX `outbox_events_unsent_idx` ON `outbox_events` (`sent_at`,`created_at`);--> statement-breakpoint
ALTER TABLE `shift_requests` ADD `last_op_id` text;