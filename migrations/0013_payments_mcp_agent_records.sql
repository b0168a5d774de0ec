CREATE TABLE `ai_passports` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`agent_name` text NOT NULL,
	`model` text NOT NULL,
	`operator` text NOT NULL,
	`purpose` text,
	`created_at` integer NOT NULL,
	`revoked_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `ai_passports_user_idx` ON `ai_passports` (`user_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `shift_deliverables` (
	`id` text PRIMARY KEY NOT NULL,
	`shift_request_id` text NOT NULL,
	`author_user_id` text NOT NULL,
	`author_side` text NOT NULL,
	`note` text,
	`links` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`shift_request_id`) REFERENCES `shift_requests`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`author_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `shift_deliverables_shift_idx` ON `shift_deliverables` (`shift_request_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `counter_offers` (
	`id` text PRIMARY KEY NOT NULL,
	`shift_request_id` text NOT NULL,
	`shifter_id` text NOT NULL,
	`business_id` text NOT NULL,
	`hourly_rate_minor` integer NOT NULL,
	`currency` text NOT NULL,
	`note` text,
	`status` text DEFAULT 'pending' NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`shift_request_id`) REFERENCES `shift_requests`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`shifter_id`) REFERENCES `shifters`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`business_id`) REFERENCES `businesses`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `counter_offers_shift_unique` ON `counter_offers` (`shift_request_id`);--> statement-breakpoint
CREATE INDEX `counter_offers_business_idx` ON `counter_offers` (`business_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `mcp_confirm_tokens` (
	`id` text PRIMARY KEY NOT NULL,
	`token_hash` text NOT NULL,
	`user_id` text NOT NULL,
	`shift_request_id` text NOT NULL,
	`business_id` text NOT NULL,
	`amount_minor` integer NOT NULL,
	`currency` text NOT NULL,
	`requested_by_token_id` text,
	`expires_at` integer NOT NULL,
	`used_at` integer,
	`used_op_id` text,
	`charge_status` text,
	`invoice_id` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`shift_request_id`) REFERENCES `shift_requests`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`business_id`) REFERENCES `businesses`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `mcp_confirm_tokens_hash_unique` ON `mcp_confirm_tokens` (`token_hash`);--> statement-breakpoint
CREATE INDEX `mcp_confirm_tokens_user_idx` ON `mcp_confirm_tokens` (`user_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `mcp_audit` (
	`id` text PRIMARY KEY NOT NULL,
	`token_id` text NOT NULL,
	`user_id` text NOT NULL,
	`tool_name` text NOT NULL,
	`arguments` text NOT NULL,
	`status` text NOT NULL,
	`latency_ms` integer NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `mcp_audit_user_idx` ON `mcp_audit` (`user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `mcp_audit_token_idx` ON `mcp_audit` (`token_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `mcp_user_settings` (
	`user_id` text PRIMARY KEY NOT NULL,
	`confirm_writes` integer DEFAULT true NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `invoices` ADD `charge_attempts` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `invoices` ADD `charging_since` integer;--> statement-breakpoint
CREATE INDEX `invoices_auto_charge_idx` ON `invoices` (`status`,`charge_attempted_at`,`created_at`);--> statement-breakpoint
ALTER TABLE `payment_methods` ADD `last_op_id` text;--> statement-breakpoint
ALTER TABLE `payment_sim_events` ADD `claimed_until` integer;