CREATE TABLE `calendar_feeds` (
	`shifter_id` text PRIMARY KEY NOT NULL,
	`secret_hash` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`shifter_id`) REFERENCES `shifters`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `calendar_feeds_secret_idx` ON `calendar_feeds` (`secret_hash`);