CREATE TABLE `crew_invites` (
	`id` text PRIMARY KEY NOT NULL,
	`business_id` text NOT NULL,
	`channel` text NOT NULL,
	`address` text NOT NULL,
	`name` text,
	`token_hash` text NOT NULL,
	`status` text NOT NULL,
	`invited_by_user_id` text NOT NULL,
	`accepted_shifter_id` text,
	`expires_at` integer NOT NULL,
	`responded_at` integer,
	`last_op_id` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`business_id`) REFERENCES `businesses`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`invited_by_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`accepted_shifter_id`) REFERENCES `shifters`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `crew_invites_token_idx` ON `crew_invites` (`token_hash`);--> statement-breakpoint
CREATE INDEX `crew_invites_business_idx` ON `crew_invites` (`business_id`,`status`,`created_at`);--> statement-breakpoint
CREATE INDEX `crew_invites_address_idx` ON `crew_invites` (`business_id`,`address`,`status`);--> statement-breakpoint
CREATE TABLE `crew_join_links` (
	`id` text PRIMARY KEY NOT NULL,
	`business_id` text NOT NULL,
	`token` text NOT NULL,
	`created_by_user_id` text NOT NULL,
	`uses` integer DEFAULT 0 NOT NULL,
	`revoked_at` integer,
	`last_op_id` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`business_id`) REFERENCES `businesses`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`created_by_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `crew_join_links_token_idx` ON `crew_join_links` (`token`);--> statement-breakpoint
CREATE INDEX `crew_join_links_business_idx` ON `crew_join_links` (`business_id`,`revoked_at`);--> statement-breakpoint
CREATE TABLE `sms_outbox` (
	`id` text PRIMARY KEY NOT NULL,
	`to_number` text NOT NULL,
	`text_body` text NOT NULL,
	`template` text NOT NULL,
	`provider` text NOT NULL,
	`status` text NOT NULL,
	`sensitive` integer DEFAULT false NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`last_error` text,
	`next_attempt_at` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`sent_at` integer
);
--> statement-breakpoint
CREATE INDEX `sms_outbox_to_idx` ON `sms_outbox` (`to_number`,`created_at`);