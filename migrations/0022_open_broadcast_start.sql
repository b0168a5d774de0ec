DROP INDEX `shift_requests_open_business_created_idx`;--> statement-breakpoint
DROP INDEX `shift_requests_open_created_idx`;--> statement-breakpoint
DROP INDEX `shift_requests_open_rate_idx`;--> statement-breakpoint
CREATE INDEX `shift_requests_open_business_created_idx` ON `shift_requests` (`business_id`,`created_at`,`id`,`starts_at`) WHERE request_status = 1 AND is_broadcast = 1;--> statement-breakpoint
CREATE INDEX `shift_requests_open_created_idx` ON `shift_requests` (`created_at`,`id`,`starts_at`) WHERE request_status = 1 AND is_broadcast = 1;--> statement-breakpoint
CREATE INDEX `shift_requests_open_rate_idx` ON `shift_requests` (`business_id`,`shiftrole_id`,`currency`,`hourly_rate_minor`,`starts_at`) WHERE request_status = 1 AND is_broadcast = 1;