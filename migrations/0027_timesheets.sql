CREATE TABLE `timesheet_disputes` (
	`id` text PRIMARY KEY NOT NULL,
	`timesheet_id` text NOT NULL,
	`status` text NOT NULL,
	`proposed_in_at` integer NOT NULL,
	`proposed_out_at` integer NOT NULL,
	`proposed_unpaid_break_minutes` integer NOT NULL,
	`reason` text NOT NULL,
	`answer_due_at` integer NOT NULL,
	`answer_note` text,
	`answered_at` integer,
	`answered_by_user_id` text,
	`created_by_user_id` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`timesheet_id`) REFERENCES `timesheets`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`answered_by_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`created_by_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `timesheet_disputes_timesheet_idx` ON `timesheet_disputes` (`timesheet_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `timesheet_disputes_due_idx` ON `timesheet_disputes` (`answer_due_at`) WHERE status = 'open';--> statement-breakpoint
CREATE TABLE `timesheets` (
	`id` text PRIMARY KEY NOT NULL,
	`shift_request_id` text NOT NULL,
	`business_id` text NOT NULL,
	`shifter_id` text NOT NULL,
	`status` text NOT NULL,
	`in_at` integer NOT NULL,
	`out_at` integer,
	`breaks` text DEFAULT '[]' NOT NULL,
	`unpaid_break_minutes` integer DEFAULT 0 NOT NULL,
	`break_attestation` text,
	`worker_note` text,
	`left_early` integer DEFAULT false NOT NULL,
	`edit_reason` text,
	`edit_note` text,
	`edited_at` integer,
	`edited_by_user_id` text,
	`dispute_until` integer,
	`submitted_at` integer,
	`auto_approve_at` integer,
	`approved_at` integer,
	`approved_how` text,
	`approved_by_user_id` text,
	`paid_minutes` integer,
	`pay_minor` integer,
	`last_op_id` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`shift_request_id`) REFERENCES `shift_requests`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`business_id`) REFERENCES `businesses`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`shifter_id`) REFERENCES `shifters`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`edited_by_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`approved_by_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `timesheets_shift_idx` ON `timesheets` (`shift_request_id`);--> statement-breakpoint
CREATE INDEX `timesheets_business_status_idx` ON `timesheets` (`business_id`,`status`,`in_at`);--> statement-breakpoint
CREATE INDEX `timesheets_shifter_idx` ON `timesheets` (`shifter_id`,`in_at`);--> statement-breakpoint
CREATE INDEX `timesheets_auto_approve_idx` ON `timesheets` (`auto_approve_at`) WHERE status = 'submitted';--> statement-breakpoint
ALTER TABLE `businesses` ADD `timesheet_rounding_minutes` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `businesses` ADD `timesheet_dispute_hours` integer DEFAULT 12 NOT NULL;--> statement-breakpoint
ALTER TABLE `businesses` ADD `timesheet_answer_hours` integer DEFAULT 72 NOT NULL;--> statement-breakpoint
ALTER TABLE `businesses` ADD `timesheet_auto_approve_hours` integer;