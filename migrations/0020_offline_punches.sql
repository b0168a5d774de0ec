ALTER TABLE `shift_requests` ADD `clock_in_received_at` integer;--> statement-breakpoint
ALTER TABLE `shift_requests` ADD `clock_out_received_at` integer;