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
CREATE INDEX `counter_offers_business_idx` ON `counter_offers` (`business_id`,`created_at`);
