CREATE TABLE `clock_photos` (
	`id` text PRIMARY KEY NOT NULL,
	`shift_request_id` text NOT NULL,
	`side` text NOT NULL,
	`object_key` text NOT NULL,
	`content_type` text NOT NULL,
	`size` integer NOT NULL,
	`uploaded_by_user_id` text,
	`created_at` integer NOT NULL,
	`used_at` integer,
	`removed_at` integer,
	FOREIGN KEY (`shift_request_id`) REFERENCES `shift_requests`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `clock_photos_shift_side_idx` ON `clock_photos` (`shift_request_id`,`side`);--> statement-breakpoint
CREATE UNIQUE INDEX `clock_photos_object_key_idx` ON `clock_photos` (`object_key`);--> statement-breakpoint
CREATE INDEX `clock_photos_unused_idx` ON `clock_photos` (`created_at`) WHERE used_at IS NULL AND removed_at IS NULL;