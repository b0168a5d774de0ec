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
CREATE INDEX `shift_deliverables_shift_idx` ON `shift_deliverables` (`shift_request_id`,`created_at`);
