CREATE TABLE `payment_customers` (
	`business_id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`default_payment_method_id` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`business_id`) REFERENCES `businesses`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `payment_customers_customer_unique` ON `payment_customers` (`customer_id`);--> statement-breakpoint
CREATE TABLE `payment_methods` (
	`id` text PRIMARY KEY NOT NULL,
	`business_id` text NOT NULL,
	`brand` text NOT NULL,
	`last4` text NOT NULL,
	`exp_month` integer NOT NULL,
	`exp_year` integer NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`business_id`) REFERENCES `businesses`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `payment_methods_business_idx` ON `payment_methods` (`business_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `payment_sim_events` (
	`id` text PRIMARY KEY NOT NULL,
	`type` text NOT NULL,
	`payload` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`delivered_at` integer
);
--> statement-breakpoint
CREATE INDEX `payment_sim_events_pending_idx` ON `payment_sim_events` (`delivered_at`,`created_at`);--> statement-breakpoint
CREATE TABLE `payment_sim_objects` (
	`id` text PRIMARY KEY NOT NULL,
	`type` text NOT NULL,
	`idempotency_key` text,
	`data` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `payment_sim_objects_idempotency_unique` ON `payment_sim_objects` (`idempotency_key`);--> statement-breakpoint
CREATE TABLE `payout_accounts` (
	`shifter_id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`details_submitted` integer DEFAULT false NOT NULL,
	`payouts_enabled` integer DEFAULT false NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`shifter_id`) REFERENCES `shifters`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `payout_accounts_account_unique` ON `payout_accounts` (`account_id`);--> statement-breakpoint
CREATE TABLE `refunds` (
	`id` text PRIMARY KEY NOT NULL,
	`invoice_id` text NOT NULL,
	`amount_minor` integer NOT NULL,
	`currency` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`reason` text,
	`processor_refund_id` text,
	`reversal_id` text,
	`reversal_amount_minor` integer DEFAULT 0 NOT NULL,
	`failure_reason` text,
	`requested_by` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`invoice_id`) REFERENCES `invoices`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `refunds_invoice_idx` ON `refunds` (`invoice_id`,`created_at`);--> statement-breakpoint
ALTER TABLE `invoices` ADD `charge_id` text;--> statement-breakpoint
ALTER TABLE `invoices` ADD `charge_attempted_at` integer;--> statement-breakpoint
ALTER TABLE `invoices` ADD `refunded_minor` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `invoices` ADD `transfer_id` text;--> statement-breakpoint
ALTER TABLE `invoices` ADD `transfer_amount_minor` integer;--> statement-breakpoint
ALTER TABLE `invoices` ADD `transfer_reversed_minor` integer DEFAULT 0 NOT NULL;