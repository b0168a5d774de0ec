CREATE TABLE `webhook_endpoints` (
	`id` text PRIMARY KEY NOT NULL,
	`partner_client_id` text NOT NULL,
	`url` text NOT NULL,
	`description` text,
	`event_types` text NOT NULL,
	`secret_enc` text NOT NULL,
	`previous_secret_enc` text,
	`previous_secret_expires_at` integer,
	`status` text DEFAULT 'active' NOT NULL,
	`disabled_reason` text,
	`disabled_at` integer,
	`consecutive_failures` integer DEFAULT 0 NOT NULL,
	`failing_since` integer,
	`last_success_at` integer,
	`last_failure_at` integer,
	`last_op_id` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`partner_client_id`) REFERENCES `partner_clients`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `webhook_endpoints_partner_idx` ON `webhook_endpoints` (`partner_client_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `webhook_events` (
	`id` text PRIMARY KEY NOT NULL,
	`type` text NOT NULL,
	`business_id` text,
	`payload` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `webhook_events_created_idx` ON `webhook_events` (`created_at`);--> statement-breakpoint
CREATE TABLE `webhook_deliveries` (
	`id` text PRIMARY KEY NOT NULL,
	`event_id` text NOT NULL,
	`endpoint_id` text NOT NULL,
	`status` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`max_attempts` integer NOT NULL,
	`next_attempt_at` integer NOT NULL,
	`lease_until` integer,
	`last_attempt_at` integer,
	`last_response_code` integer,
	`last_duration_ms` integer,
	`last_error` text,
	`last_op_id` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`event_id`) REFERENCES `webhook_events`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`endpoint_id`) REFERENCES `webhook_endpoints`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `webhook_deliveries_event_endpoint_idx` ON `webhook_deliveries` (`event_id`,`endpoint_id`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_endpoint_idx` ON `webhook_deliveries` (`endpoint_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_due_idx` ON `webhook_deliveries` (`status`,`next_attempt_at`);--> statement-breakpoint
CREATE TABLE `webhook_delivery_attempts` (
	`id` text PRIMARY KEY NOT NULL,
	`delivery_id` text NOT NULL,
	`attempt` integer NOT NULL,
	`manual` integer DEFAULT false NOT NULL,
	`started_at` integer NOT NULL,
	`duration_ms` integer NOT NULL,
	`response_code` integer,
	`error` text,
	`outcome` text NOT NULL,
	FOREIGN KEY (`delivery_id`) REFERENCES `webhook_deliveries`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `webhook_delivery_attempts_attempt_idx` ON `webhook_delivery_attempts` (`delivery_id`,`attempt`);
