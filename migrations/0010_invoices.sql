CREATE TABLE `invoices` (
	`id` text PRIMARY KEY NOT NULL,
	`business_id` text NOT NULL,
	`shift_request_id` text NOT NULL,
	`shifter_id` text,
	`amount_minor` integer NOT NULL,
	`currency` text NOT NULL,
	`conversion_amount_minor` integer,
	`conversion_currency` text,
	`status` text DEFAULT 'pending' NOT NULL,
	`requires_action` integer DEFAULT false NOT NULL,
	`requires_action_at` integer,
	`payment_intent_id` text,
	`paid_at` integer,
	`failed_at` integer,
	`last_op_id` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`business_id`) REFERENCES `businesses`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`shift_request_id`) REFERENCES `shift_requests`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`shifter_id`) REFERENCES `shifters`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `invoices_shift_request_unique` ON `invoices` (`shift_request_id`);--> statement-breakpoint
CREATE INDEX `invoices_business_list_idx` ON `invoices` (`business_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `invoices_business_status_idx` ON `invoices` (`business_id`,`status`,`created_at`,`id`);