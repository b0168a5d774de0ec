ALTER TABLE `idempotency_keys` ADD `resource_type` text;--> statement-breakpoint
ALTER TABLE `idempotency_keys` ADD `resource_id` text;--> statement-breakpoint
ALTER TABLE `idempotency_keys` ADD `attempt` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE `idempotency_keys` ADD `attempt_started_at` integer;
