CREATE TABLE `thread_live_views` (
	`conversation_id` text NOT NULL,
	`session_id` text NOT NULL,
	`user_id` text NOT NULL,
	`opened_at` integer NOT NULL,
	PRIMARY KEY(`conversation_id`, `session_id`),
	FOREIGN KEY (`conversation_id`) REFERENCES `conversations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`session_id`) REFERENCES `sessions`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `thread_live_views_user_idx` ON `thread_live_views` (`user_id`);--> statement-breakpoint
CREATE INDEX `thread_live_views_session_idx` ON `thread_live_views` (`session_id`);