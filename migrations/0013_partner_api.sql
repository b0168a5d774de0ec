CREATE TABLE `partner_clients` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`owner_user_id` text NOT NULL,
	`client_tier` text DEFAULT 'self_serve' NOT NULL,
	`scopes` text NOT NULL,
	`status` text DEFAULT 'active' NOT NULL,
	`last_op_id` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`owner_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `partner_clients_owner_idx` ON `partner_clients` (`owner_user_id`);--> statement-breakpoint
CREATE TABLE `partner_credentials` (
	`id` text PRIMARY KEY NOT NULL,
	`client_id` text NOT NULL,
	`kind` text NOT NULL,
	`prefix` text NOT NULL,
	`secret_hash` text NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer,
	`revoked_at` integer,
	`last_used_at` integer,
	FOREIGN KEY (`client_id`) REFERENCES `partner_clients`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `partner_credentials_secret_hash_unique` ON `partner_credentials` (`secret_hash`);--> statement-breakpoint
CREATE INDEX `partner_credentials_client_idx` ON `partner_credentials` (`client_id`,`kind`);--> statement-breakpoint
CREATE UNIQUE INDEX `partner_credentials_one_current` ON `partner_credentials` (`client_id`,`kind`) WHERE revoked_at IS NULL AND expires_at IS NULL;--> statement-breakpoint
CREATE TABLE `partner_tokens` (
	`id` text PRIMARY KEY NOT NULL,
	`client_id` text NOT NULL,
	`token_hash` text NOT NULL,
	`scopes` text NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`revoked_at` integer,
	FOREIGN KEY (`client_id`) REFERENCES `partner_clients`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `partner_tokens_token_hash_unique` ON `partner_tokens` (`token_hash`);--> statement-breakpoint
CREATE INDEX `partner_tokens_client_idx` ON `partner_tokens` (`client_id`,`expires_at`);--> statement-breakpoint
CREATE TABLE `partner_business_links` (
	`id` text PRIMARY KEY NOT NULL,
	`business_id` text NOT NULL,
	`client_id` text NOT NULL,
	`scopes` text NOT NULL,
	`linked_by_user_id` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`business_id`) REFERENCES `businesses`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`client_id`) REFERENCES `partner_clients`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`linked_by_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `partner_business_links_pair` ON `partner_business_links` (`business_id`,`client_id`);--> statement-breakpoint
CREATE INDEX `partner_business_links_client_idx` ON `partner_business_links` (`client_id`);
