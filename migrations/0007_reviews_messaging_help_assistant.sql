CREATE TABLE `reviews` (
	`id` text PRIMARY KEY NOT NULL,
	`reviewer_user_id` text NOT NULL,
	`review_by` text NOT NULL,
	`review_by_id` text NOT NULL,
	`review_on` text NOT NULL,
	`review_on_id` text NOT NULL,
	`shift_request_id` text,
	`rating` integer NOT NULL,
	`review_text` text,
	`response_text` text,
	`response_at` integer,
	`dispute_status` text,
	`dispute_reason` text,
	`disputed_at` integer,
	`dispute_resolved_at` integer,
	`dispute_resolved_by_user_id` text,
	`last_op_id` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`reviewer_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`shift_request_id`) REFERENCES `shift_requests`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `reviews_on_idx` ON `reviews` (`review_on`,`review_on_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `reviews_by_idx` ON `reviews` (`review_by`,`review_by_id`);--> statement-breakpoint
CREATE INDEX `reviews_dispute_idx` ON `reviews` (`dispute_status`,`disputed_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `reviews_one_per_pinned_shift` ON `reviews` (`shift_request_id`,`review_by`,`review_by_id`) WHERE shift_request_id IS NOT NULL;--> statement-breakpoint
CREATE TABLE `conversation_participants` (
	`conversation_id` text NOT NULL,
	`party_kind` text NOT NULL,
	`party_id` text NOT NULL,
	`is_automated` integer DEFAULT false NOT NULL,
	`automation_kind` text,
	`accepted_at` integer,
	`pinned_at` integer,
	`archived_at` integer,
	`blocked_at` integer,
	`last_read_seq` integer DEFAULT 0 NOT NULL,
	`joined_at` integer NOT NULL,
	PRIMARY KEY(`conversation_id`, `party_kind`, `party_id`),
	FOREIGN KEY (`conversation_id`) REFERENCES `conversations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `conversation_participants_party_idx` ON `conversation_participants` (`party_kind`,`party_id`,`archived_at`);--> statement-breakpoint
CREATE TABLE `conversations` (
	`id` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`pair_key` text,
	`subject` text,
	`created_by_user_id` text NOT NULL,
	`owner_user_id` text,
	`escalated_at` integer,
	`last_message_at` integer,
	`last_message_seq` integer DEFAULT 0 NOT NULL,
	`last_message_preview` text,
	`last_sender_kind` text,
	`last_sender_id` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`created_by_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`owner_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `conversations_pair` ON `conversations` (`pair_key`);--> statement-breakpoint
CREATE INDEX `conversations_owner_idx` ON `conversations` (`owner_user_id`,`kind`);--> statement-breakpoint
CREATE INDEX `conversations_kind_idx` ON `conversations` (`kind`,`escalated_at`);--> statement-breakpoint
CREATE TABLE `help_article_feedback` (
	`id` text PRIMARY KEY NOT NULL,
	`article_id` text NOT NULL,
	`user_id` text NOT NULL,
	`helpful` integer NOT NULL,
	`comment` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`article_id`) REFERENCES `help_articles`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `help_article_feedback_one_per_user` ON `help_article_feedback` (`article_id`,`user_id`);--> statement-breakpoint
CREATE TABLE `help_articles` (
	`id` text PRIMARY KEY NOT NULL,
	`title` text NOT NULL,
	`summary` text NOT NULL,
	`body` text NOT NULL,
	`category` text NOT NULL,
	`tags` text DEFAULT '' NOT NULL,
	`position` integer DEFAULT 0 NOT NULL,
	`helpful_count` integer DEFAULT 0 NOT NULL,
	`not_helpful_count` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `help_articles_category_idx` ON `help_articles` (`category`,`position`);--> statement-breakpoint
CREATE TABLE `help_videos` (
	`id` text PRIMARY KEY NOT NULL,
	`title` text NOT NULL,
	`description` text NOT NULL,
	`url` text NOT NULL,
	`duration_seconds` integer NOT NULL,
	`transcript` text DEFAULT '' NOT NULL,
	`category` text NOT NULL,
	`position` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `help_videos_category_idx` ON `help_videos` (`category`,`position`);--> statement-breakpoint
CREATE TABLE `assistant_messages` (
	`id` text PRIMARY KEY NOT NULL,
	`business_id` text NOT NULL,
	`user_id` text,
	`role` text NOT NULL,
	`content` text NOT NULL,
	`actions` text,
	`model` text,
	`prompt_tokens` integer,
	`completion_tokens` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`business_id`) REFERENCES `businesses`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `assistant_messages_business_idx` ON `assistant_messages` (`business_id`,`created_at`);