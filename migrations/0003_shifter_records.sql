CREATE TABLE `counter_rules` (
	`id` text PRIMARY KEY NOT NULL,
	`shifter_id` text NOT NULL,
	`label` text NOT NULL,
	`shiftrole_id` integer,
	`weekdays` text,
	`start_from` text,
	`start_to` text,
	`min_hourly_rate_minor` integer NOT NULL,
	`currency` text NOT NULL,
	`distance_threshold_km` real,
	`distance_premium_minor` integer,
	`is_active` integer DEFAULT true NOT NULL,
	`is_auto_apply` integer DEFAULT false NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`shifter_id`) REFERENCES `shifters`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`shiftrole_id`) REFERENCES `shift_roles`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`currency`) REFERENCES `currencies`(`code`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `counter_rules_shifter_idx` ON `counter_rules` (`shifter_id`);--> statement-breakpoint
CREATE TABLE `credentials` (
	`id` text PRIMARY KEY NOT NULL,
	`shifter_id` text NOT NULL,
	`label` text NOT NULL,
	`issuer` text,
	`issued_on` text,
	`expires_on` text,
	`notes` text,
	`document_key` text,
	`document_type` text,
	`document_size` integer,
	`is_visible` integer DEFAULT true NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`shifter_id`) REFERENCES `shifters`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `credentials_shifter_idx` ON `credentials` (`shifter_id`);--> statement-breakpoint
CREATE TABLE `mileage_entries` (
	`id` text PRIMARY KEY NOT NULL,
	`shifter_id` text NOT NULL,
	`log_date` text NOT NULL,
	`miles` real NOT NULL,
	`rate_per_mile_cents` integer NOT NULL,
	`purpose` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`shifter_id`) REFERENCES `shifters`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `mileage_shifter_date_idx` ON `mileage_entries` (`shifter_id`,`log_date`);