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
