CREATE TABLE `cities` (
	`id` integer PRIMARY KEY NOT NULL,
	`state_id` integer NOT NULL,
	`country_id` integer NOT NULL,
	`name` text NOT NULL,
	`timezone` text NOT NULL,
	`latitude` real NOT NULL,
	`longitude` real NOT NULL,
	FOREIGN KEY (`state_id`) REFERENCES `states`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`country_id`) REFERENCES `countries`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `cities_state_idx` ON `cities` (`state_id`);--> statement-breakpoint
CREATE INDEX `cities_country_idx` ON `cities` (`country_id`);--> statement-breakpoint
CREATE TABLE `countries` (
	`id` integer PRIMARY KEY NOT NULL,
	`code` text NOT NULL,
	`name` text NOT NULL,
	`currency` text NOT NULL,
	FOREIGN KEY (`currency`) REFERENCES `currencies`(`code`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `countries_code_unique` ON `countries` (`code`);--> statement-breakpoint
CREATE TABLE `currencies` (
	`code` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`minor_unit` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `shift_roles` (
	`id` integer PRIMARY KEY NOT NULL,
	`slug` text NOT NULL,
	`label` text NOT NULL,
	`is_active` integer DEFAULT true NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `shift_roles_slug_unique` ON `shift_roles` (`slug`);--> statement-breakpoint
CREATE TABLE `states` (
	`id` integer PRIMARY KEY NOT NULL,
	`country_id` integer NOT NULL,
	`code` text NOT NULL,
	`name` text NOT NULL,
	FOREIGN KEY (`country_id`) REFERENCES `countries`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `states_country_idx` ON `states` (`country_id`);--> statement-breakpoint
CREATE TABLE `admins` (
	`user_id` text PRIMARY KEY NOT NULL,
	`granted_by_user_id` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `api_keys` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`kind` text DEFAULT 'personal' NOT NULL,
	`prefix` text NOT NULL,
	`key_hash` text NOT NULL,
	`created_at` integer NOT NULL,
	`last_used_at` integer,
	`revoked_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `api_keys_key_hash_unique` ON `api_keys` (`key_hash`);--> statement-breakpoint
CREATE UNIQUE INDEX `api_keys_one_live_per_user` ON `api_keys` (`user_id`,`kind`) WHERE revoked_at IS NULL;--> statement-breakpoint
CREATE TABLE `email_verifications` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`code_hash` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`expires_at` integer NOT NULL,
	`consumed_at` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `email_verifications_user_idx` ON `email_verifications` (`user_id`);--> statement-breakpoint
CREATE TABLE `sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`token_hash` text NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`revoked_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `sessions_token_hash_unique` ON `sessions` (`token_hash`);--> statement-breakpoint
CREATE INDEX `sessions_user_idx` ON `sessions` (`user_id`);--> statement-breakpoint
CREATE TABLE `users` (
	`id` text PRIMARY KEY NOT NULL,
	`email` text NOT NULL,
	`password_hash` text NOT NULL,
	`display_name` text NOT NULL,
	`phone` text,
	`email_verified_at` integer,
	`is_demo` integer DEFAULT false NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_email_unique` ON `users` (`email`);--> statement-breakpoint
CREATE TABLE `businesses` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`slug` text NOT NULL,
	`name` text NOT NULL,
	`is_default` integer DEFAULT false NOT NULL,
	`timezone` text NOT NULL,
	`address` text,
	`city_id` integer,
	`state_id` integer,
	`country_id` integer,
	`latitude` real,
	`longitude` real,
	`geofence_radius_m` integer,
	`require_clock_photo` integer DEFAULT false NOT NULL,
	`weekly_labor_budget_minor` integer,
	`currency` text DEFAULT 'USD' NOT NULL,
	`auto_fill_on_cancel` integer DEFAULT false NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`city_id`) REFERENCES `cities`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`state_id`) REFERENCES `states`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`country_id`) REFERENCES `countries`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`currency`) REFERENCES `currencies`(`code`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `businesses_slug_unique` ON `businesses` (`slug`);--> statement-breakpoint
CREATE INDEX `businesses_user_idx` ON `businesses` (`user_id`);--> statement-breakpoint
CREATE INDEX `businesses_city_idx` ON `businesses` (`city_id`);--> statement-breakpoint
CREATE INDEX `businesses_state_idx` ON `businesses` (`state_id`);--> statement-breakpoint
CREATE INDEX `businesses_country_idx` ON `businesses` (`country_id`);--> statement-breakpoint
CREATE TABLE `shifters` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`slug` text NOT NULL,
	`display_name` text NOT NULL,
	`headline` text,
	`bio` text,
	`photo_url` text,
	`city_id` integer,
	`latitude` real,
	`longitude` real,
	`timezone` text DEFAULT 'UTC' NOT NULL,
	`accept_shift_req` integer DEFAULT true NOT NULL,
	`monthly_earnings_goal_minor` integer,
	`currency` text DEFAULT 'USD' NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`city_id`) REFERENCES `cities`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`currency`) REFERENCES `currencies`(`code`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `shifters_user_id_unique` ON `shifters` (`user_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `shifters_slug_unique` ON `shifters` (`slug`);--> statement-breakpoint
CREATE INDEX `shifters_city_idx` ON `shifters` (`city_id`);--> statement-breakpoint
CREATE TABLE `teammates` (
	`id` text PRIMARY KEY NOT NULL,
	`business_id` text NOT NULL,
	`user_id` text NOT NULL,
	`status` integer DEFAULT 1 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`business_id`) REFERENCES `businesses`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `teammates_business_user` ON `teammates` (`business_id`,`user_id`);--> statement-breakpoint
CREATE INDEX `teammates_user_idx` ON `teammates` (`user_id`);--> statement-breakpoint
CREATE TABLE `request_authorizations` (
	`id` text PRIMARY KEY NOT NULL,
	`business_id` text NOT NULL,
	`shifter_id` text NOT NULL,
	`initiated_by` text NOT NULL,
	`status` text NOT NULL,
	`responded_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`business_id`) REFERENCES `businesses`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`shifter_id`) REFERENCES `shifters`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `request_authorizations_pair` ON `request_authorizations` (`business_id`,`shifter_id`);--> statement-breakpoint
CREATE INDEX `request_authorizations_shifter_idx` ON `request_authorizations` (`shifter_id`,`status`);--> statement-breakpoint
CREATE INDEX `request_authorizations_business_idx` ON `request_authorizations` (`business_id`,`status`);--> statement-breakpoint
CREATE TABLE `shift_requests` (
	`id` text PRIMARY KEY NOT NULL,
	`business_id` text NOT NULL,
	`shifter_id` text,
	`created_by_user_id` text,
	`shift_date` text NOT NULL,
	`shift_in` text NOT NULL,
	`shift_out` text NOT NULL,
	`starts_at` integer NOT NULL,
	`ends_at` integer NOT NULL,
	`shiftrole_id` integer NOT NULL,
	`hourly_rate_minor` integer NOT NULL,
	`currency` text NOT NULL,
	`is_broadcast` integer DEFAULT false NOT NULL,
	`is_flexible` integer DEFAULT false NOT NULL,
	`request_status` integer DEFAULT 1 NOT NULL,
	`parent_id` text,
	`template_id` text,
	`note` text,
	`accepted_at` integer,
	`shift_start_at` integer,
	`shift_start_by_id` text,
	`clock_in_lat` real,
	`clock_in_lon` real,
	`clock_in_distance_m` real,
	`clock_in_photo_url` text,
	`clock_in_override` integer,
	`shift_end_at` integer,
	`shift_end_by_id` text,
	`clock_out_lat` real,
	`clock_out_lon` real,
	`clock_out_distance_m` real,
	`clock_out_photo_url` text,
	`is_noshow` integer DEFAULT false NOT NULL,
	`cancelled_at` integer,
	`cancelled_by` text,
	`cancel_reason` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`business_id`) REFERENCES `businesses`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`shifter_id`) REFERENCES `shifters`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`created_by_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`shiftrole_id`) REFERENCES `shift_roles`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`currency`) REFERENCES `currencies`(`code`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`parent_id`) REFERENCES `shift_requests`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `shift_requests_business_idx` ON `shift_requests` (`business_id`,`starts_at`);--> statement-breakpoint
CREATE INDEX `shift_requests_shifter_idx` ON `shift_requests` (`shifter_id`,`request_status`,`starts_at`);--> statement-breakpoint
CREATE INDEX `shift_requests_open_idx` ON `shift_requests` (`request_status`,`is_broadcast`,`starts_at`);--> statement-breakpoint
CREATE INDEX `shift_requests_parent_idx` ON `shift_requests` (`parent_id`);--> statement-breakpoint
CREATE INDEX `shift_requests_template_idx` ON `shift_requests` (`template_id`,`shift_date`);--> statement-breakpoint
CREATE TABLE `audit_log` (
	`id` text PRIMARY KEY NOT NULL,
	`actor_kind` text NOT NULL,
	`actor_user_id` text,
	`actor_ref` text,
	`action` text NOT NULL,
	`subject_type` text NOT NULL,
	`subject_id` text NOT NULL,
	`request_id` text,
	`data` text,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `audit_subject_idx` ON `audit_log` (`subject_type`,`subject_id`);--> statement-breakpoint
CREATE INDEX `audit_actor_idx` ON `audit_log` (`actor_user_id`);--> statement-breakpoint
CREATE TABLE `dead_letters` (
	`id` text PRIMARY KEY NOT NULL,
	`queue` text NOT NULL,
	`message_id` text NOT NULL,
	`body` text NOT NULL,
	`attempts` integer NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `dead_letters_message_id_unique` ON `dead_letters` (`message_id`);--> statement-breakpoint
CREATE TABLE `email_outbox` (
	`id` text PRIMARY KEY NOT NULL,
	`to_address` text NOT NULL,
	`subject` text NOT NULL,
	`text_body` text NOT NULL,
	`template` text NOT NULL,
	`provider` text NOT NULL,
	`status` text NOT NULL,
	`created_at` integer NOT NULL,
	`sent_at` integer
);
--> statement-breakpoint
CREATE INDEX `email_outbox_to_idx` ON `email_outbox` (`to_address`,`created_at`);--> statement-breakpoint
CREATE TABLE `idempotency_keys` (
	`id` text PRIMARY KEY NOT NULL,
	`scope` text NOT NULL,
	`idem_key` text NOT NULL,
	`method` text NOT NULL,
	`path` text NOT NULL,
	`request_hash` text NOT NULL,
	`state` text NOT NULL,
	`status_code` integer,
	`response_body` text,
	`response_content_type` text,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `idempotency_scope_key` ON `idempotency_keys` (`scope`,`idem_key`);--> statement-breakpoint
CREATE INDEX `idempotency_expires_idx` ON `idempotency_keys` (`expires_at`);--> statement-breakpoint
CREATE TABLE `notifications` (
	`id` text PRIMARY KEY NOT NULL,
	`dedupe_key` text NOT NULL,
	`user_id` text NOT NULL,
	`kind` text NOT NULL,
	`title` text NOT NULL,
	`body` text NOT NULL,
	`data` text,
	`read_at` integer,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `notifications_dedupe_key_unique` ON `notifications` (`dedupe_key`);--> statement-breakpoint
CREATE INDEX `notifications_user_idx` ON `notifications` (`user_id`,`created_at`);