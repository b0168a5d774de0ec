ALTER TABLE `invoices` ADD `charge_attempts` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `invoices` ADD `charging_since` integer;--> statement-breakpoint
ALTER TABLE `payment_methods` ADD `last_op_id` text;--> statement-breakpoint
CREATE INDEX `invoices_auto_charge_idx` ON `invoices` (`status`,`charge_attempted_at`,`created_at`);--> statement-breakpoint
ALTER TABLE `payment_sim_events` ADD `claimed_until` integer;
