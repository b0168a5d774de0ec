CREATE TABLE `code_steps` (
	`id` text PRIMARY KEY NOT NULL,
	`purpose` text NOT NULL,
	`email` text NOT NULL,
	`user_id` text,
	`token_hash` text NOT NULL,
	`expires_at` integer NOT NULL,
	`consumed_at` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `code_steps_expires_idx` ON `code_steps` (`expires_at`);--> statement-breakpoint
ALTER TABLE `shifters` ADD `timezone_confirmed` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `shifters` ADD `roles` text;--> statement-breakpoint
ALTER TABLE `shifters` ADD `home_area` text;--> statement-breakpoint
ALTER TABLE `shifters` ADD `travel_km` integer;--> statement-breakpoint
ALTER TABLE `shifters` ADD `min_hourly_rate_minor` integer;--> statement-breakpoint
ALTER TABLE `shifters` ADD `min_hourly_rate_currency` text REFERENCES currencies(code);