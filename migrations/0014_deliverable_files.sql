CREATE TABLE `shift_deliverable_files` (
	`id` text PRIMARY KEY NOT NULL,
	`deliverable_id` text NOT NULL,
	`shift_request_id` text NOT NULL,
	`uploaded_by_user_id` text NOT NULL,
	`name` text NOT NULL,
	`content_type` text NOT NULL,
	`size` integer NOT NULL,
	`object_key` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`deliverable_id`) REFERENCES `shift_deliverables`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`shift_request_id`) REFERENCES `shift_requests`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`uploaded_by_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `shift_deliverable_files_deliverable_idx` ON `shift_deliverable_files` (`deliverable_id`,`created_at`);