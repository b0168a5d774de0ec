CREATE TABLE `kiosk_sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`business_id` text NOT NULL,
	`started_by_user_id` text NOT NULL,
	`token_hash` text NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`last_seen_at` integer,
	`ended_at` integer,
	`ended_by` text,
	`user_agent` text,
	FOREIGN KEY (`business_id`) REFERENCES `businesses`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`started_by_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `kiosk_sessions_token_hash_unique` ON `kiosk_sessions` (`token_hash`);--> statement-breakpoint
CREATE INDEX `kiosk_sessions_business_idx` ON `kiosk_sessions` (`business_id`);