CREATE TABLE `shift_crew_window` (
	`business_id` text NOT NULL,
	`shifter_id` text NOT NULL,
	`currency` text NOT NULL,
	`worked` integer NOT NULL,
	`minutes` integer NOT NULL,
	`pay_minor` integer NOT NULL,
	`no_shows` integer NOT NULL,
	`cancels` integer NOT NULL,
	PRIMARY KEY(`business_id`, `shifter_id`, `currency`)
);
--> statement-breakpoint
CREATE TABLE `shift_labor_week_shifters` (
	`business_id` text NOT NULL,
	`week_start` integer NOT NULL,
	`shifter_id` text NOT NULL,
	`currency` text NOT NULL,
	`shifts` integer NOT NULL,
	`minutes` integer NOT NULL,
	`pay_minor` integer NOT NULL,
	PRIMARY KEY(`business_id`, `week_start`, `shifter_id`, `currency`)
);
--> statement-breakpoint
CREATE TABLE `shift_labor_weeks` (
	`business_id` text NOT NULL,
	`week_start` integer NOT NULL,
	`shiftrole_id` integer NOT NULL,
	`currency` text NOT NULL,
	`shifts` integer NOT NULL,
	`minutes` integer NOT NULL,
	`pay_minor` integer NOT NULL,
	PRIMARY KEY(`business_id`, `week_start`, `shiftrole_id`, `currency`)
);
--> statement-breakpoint
CREATE TABLE `shift_rate_window` (
	`city_id` integer NOT NULL,
	`state_id` integer NOT NULL,
	`country_id` integer NOT NULL,
	`shiftrole_id` integer NOT NULL,
	`currency` text NOT NULL,
	`rate_minor` integer NOT NULL,
	`shifts` integer NOT NULL,
	PRIMARY KEY(`city_id`, `shiftrole_id`, `currency`, `rate_minor`, `state_id`, `country_id`)
);
--> statement-breakpoint
CREATE INDEX `shift_rate_window_state_idx` ON `shift_rate_window` (`state_id`,`shiftrole_id`,`currency`,`rate_minor`);--> statement-breakpoint
CREATE INDEX `shift_rate_window_country_idx` ON `shift_rate_window` (`country_id`,`shiftrole_id`,`currency`,`rate_minor`);--> statement-breakpoint
CREATE TABLE `shift_rollup_windows` (
	`name` text PRIMARY KEY NOT NULL,
	`covers_from` integer NOT NULL,
	`covers_to` integer NOT NULL,
	`advanced_at` integer
);
--> statement-breakpoint
ALTER TABLE `conversation_participants` ADD `last_message_at` integer;--> statement-breakpoint
CREATE INDEX `conversation_participants_inbox_all_idx` ON `conversation_participants` (`party_kind`,`party_id`,`last_message_at`,`conversation_id`) WHERE archived_at IS NULL AND accepted_at IS NOT NULL AND last_message_at IS NOT NULL;--> statement-breakpoint
CREATE INDEX `conversation_participants_inbox_pinned_idx` ON `conversation_participants` (`party_kind`,`party_id`,`last_message_at`,`conversation_id`) WHERE archived_at IS NULL AND accepted_at IS NOT NULL AND pinned_at IS NOT NULL AND last_message_at IS NOT NULL;--> statement-breakpoint
CREATE INDEX `conversation_participants_inbox_requests_idx` ON `conversation_participants` (`party_kind`,`party_id`,`last_message_at`,`conversation_id`) WHERE archived_at IS NULL AND accepted_at IS NULL AND last_message_at IS NOT NULL;--> statement-breakpoint
CREATE INDEX `conversation_participants_inbox_archived_idx` ON `conversation_participants` (`party_kind`,`party_id`,`last_message_at`,`conversation_id`) WHERE archived_at IS NOT NULL AND last_message_at IS NOT NULL;--> statement-breakpoint
CREATE INDEX `shift_requests_business_created_idx` ON `shift_requests` (`business_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `shift_requests_shifter_created_idx` ON `shift_requests` (`shifter_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `shift_requests_created_idx` ON `shift_requests` (`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `shift_requests_open_business_created_idx` ON `shift_requests` (`business_id`,`created_at`,`id`) WHERE request_status = 1 AND is_broadcast = 1;--> statement-breakpoint
CREATE INDEX `shift_requests_open_created_idx` ON `shift_requests` (`created_at`,`id`) WHERE request_status = 1 AND is_broadcast = 1;--> statement-breakpoint
CREATE INDEX `shift_requests_open_rate_idx` ON `shift_requests` (`business_id`,`shiftrole_id`,`currency`,`hourly_rate_minor`) WHERE request_status = 1 AND is_broadcast = 1;--> statement-breakpoint
CREATE INDEX `shift_requests_business_shifter_idx` ON `shift_requests` (`business_id`,`shifter_id`,`starts_at`);--> statement-breakpoint
-- Shift rollups (services/insights/rollups.ts): kept by these triggers in the statement that changes a row,
-- whichever service, job or import writes it. A row counts while it is worked, or (crew) a no-show or the
-- shifter's own cancellation; an update takes the old row out and puts the new one in.
--> statement-breakpoint
CREATE TRIGGER `shift_rollups_ai` AFTER INSERT ON `shift_requests` WHEN ((NEW.request_status IN (2, 5) AND NEW.shift_end_at IS NOT NULL AND NEW.is_noshow = 0) OR (NEW.shifter_id IS NOT NULL AND (NEW.is_noshow = 1 OR NEW.cancelled_by = 'shifter'))) BEGIN
	INSERT INTO shift_labor_weeks (business_id, week_start, shiftrole_id, currency, shifts, minutes, pay_minor)
	  SELECT NEW.business_id, (NEW.starts_at - ((((NEW.starts_at - 345600000) % 604800000) + 604800000) % 604800000)), NEW.shiftrole_id, NEW.currency, 1, x.m, (CASE WHEN (x.m * NEW.hourly_rate_minor) >= 0 THEN ((x.m * NEW.hourly_rate_minor) + 30) / 60 ELSE -((30 - (x.m * NEW.hourly_rate_minor)) / 60) END)
	  FROM (SELECT (((NEW.ends_at - NEW.starts_at + 30000) - ((((NEW.ends_at - NEW.starts_at + 30000) % 60000) + 60000) % 60000)) / 60000) AS m) x WHERE (NEW.request_status IN (2, 5) AND NEW.shift_end_at IS NOT NULL AND NEW.is_noshow = 0)
	  ON CONFLICT (business_id, week_start, shiftrole_id, currency) DO UPDATE SET
	    shifts = shifts + excluded.shifts, minutes = minutes + excluded.minutes, pay_minor = pay_minor + excluded.pay_minor;
	INSERT INTO shift_labor_week_shifters (business_id, week_start, shifter_id, currency, shifts, minutes, pay_minor)
	  SELECT NEW.business_id, (NEW.starts_at - ((((NEW.starts_at - 345600000) % 604800000) + 604800000) % 604800000)), coalesce(NEW.shifter_id, ''), NEW.currency, 1, x.m, (CASE WHEN (x.m * NEW.hourly_rate_minor) >= 0 THEN ((x.m * NEW.hourly_rate_minor) + 30) / 60 ELSE -((30 - (x.m * NEW.hourly_rate_minor)) / 60) END)
	  FROM (SELECT (((NEW.ends_at - NEW.starts_at + 30000) - ((((NEW.ends_at - NEW.starts_at + 30000) % 60000) + 60000) % 60000)) / 60000) AS m) x WHERE (NEW.request_status IN (2, 5) AND NEW.shift_end_at IS NOT NULL AND NEW.is_noshow = 0)
	  ON CONFLICT (business_id, week_start, shifter_id, currency) DO UPDATE SET
	    shifts = shifts + excluded.shifts, minutes = minutes + excluded.minutes, pay_minor = pay_minor + excluded.pay_minor;
	INSERT INTO shift_crew_window (business_id, shifter_id, currency, worked, minutes, pay_minor, no_shows, cancels)
	  SELECT NEW.business_id, NEW.shifter_id, NEW.currency, x.w, x.w * x.m, x.w * (CASE WHEN (x.m * NEW.hourly_rate_minor) >= 0 THEN ((x.m * NEW.hourly_rate_minor) + 30) / 60 ELSE -((30 - (x.m * NEW.hourly_rate_minor)) / 60) END),
	    (x.w = 0 AND NEW.is_noshow = 1), (x.w = 0 AND NEW.is_noshow = 0 AND NEW.cancelled_by IS 'shifter')
	  FROM (SELECT (NEW.request_status IN (2, 5) AND NEW.shift_end_at IS NOT NULL AND NEW.is_noshow = 0) AS w, (((NEW.ends_at - NEW.starts_at + 30000) - ((((NEW.ends_at - NEW.starts_at + 30000) % 60000) + 60000) % 60000)) / 60000) AS m) x, shift_rollup_windows rw
	  WHERE rw.name = 'crew' AND NEW.starts_at >= rw.covers_from AND NEW.starts_at < rw.covers_to AND ((NEW.request_status IN (2, 5) AND NEW.shift_end_at IS NOT NULL AND NEW.is_noshow = 0) OR (NEW.shifter_id IS NOT NULL AND (NEW.is_noshow = 1 OR NEW.cancelled_by = 'shifter')))
	  ON CONFLICT (business_id, shifter_id, currency) DO UPDATE SET
	    worked = worked + excluded.worked, minutes = minutes + excluded.minutes, pay_minor = pay_minor + excluded.pay_minor,
	    no_shows = no_shows + excluded.no_shows, cancels = cancels + excluded.cancels;
	INSERT INTO shift_rate_window (city_id, state_id, country_id, shiftrole_id, currency, rate_minor, shifts)
	  SELECT coalesce(b.city_id, 0), coalesce(b.state_id, 0), coalesce(b.country_id, 0), r.role, NEW.currency, NEW.hourly_rate_minor, 1
	  FROM businesses b, shift_rollup_windows rw, (SELECT NEW.shiftrole_id AS role UNION ALL SELECT 0) r
	  WHERE b.id = NEW.business_id AND rw.name = 'going_rate' AND NEW.starts_at >= rw.covers_from AND NEW.starts_at < rw.covers_to
	    AND (NEW.request_status IN (2, 5) AND NEW.shift_end_at IS NOT NULL AND NEW.is_noshow = 0)
	  ON CONFLICT (city_id, shiftrole_id, currency, rate_minor, state_id, country_id) DO UPDATE SET shifts = shifts + excluded.shifts;
END;
--> statement-breakpoint
CREATE TRIGGER `shift_rollups_au` AFTER UPDATE OF `request_status`, `shift_end_at`, `is_noshow`, `cancelled_by`, `starts_at`, `ends_at`, `hourly_rate_minor`, `currency`, `shiftrole_id`, `shifter_id`, `business_id` ON `shift_requests`
WHEN ((OLD.request_status IN (2, 5) AND OLD.shift_end_at IS NOT NULL AND OLD.is_noshow = 0) OR (OLD.shifter_id IS NOT NULL AND (OLD.is_noshow = 1 OR OLD.cancelled_by = 'shifter'))) OR ((NEW.request_status IN (2, 5) AND NEW.shift_end_at IS NOT NULL AND NEW.is_noshow = 0) OR (NEW.shifter_id IS NOT NULL AND (NEW.is_noshow = 1 OR NEW.cancelled_by = 'shifter'))) BEGIN
	INSERT INTO shift_labor_weeks (business_id, week_start, shiftrole_id, currency, shifts, minutes, pay_minor)
	  SELECT OLD.business_id, (OLD.starts_at - ((((OLD.starts_at - 345600000) % 604800000) + 604800000) % 604800000)), OLD.shiftrole_id, OLD.currency, -1, -x.m, -(CASE WHEN (x.m * OLD.hourly_rate_minor) >= 0 THEN ((x.m * OLD.hourly_rate_minor) + 30) / 60 ELSE -((30 - (x.m * OLD.hourly_rate_minor)) / 60) END)
	  FROM (SELECT (((OLD.ends_at - OLD.starts_at + 30000) - ((((OLD.ends_at - OLD.starts_at + 30000) % 60000) + 60000) % 60000)) / 60000) AS m) x WHERE (OLD.request_status IN (2, 5) AND OLD.shift_end_at IS NOT NULL AND OLD.is_noshow = 0)
	  ON CONFLICT (business_id, week_start, shiftrole_id, currency) DO UPDATE SET
	    shifts = shifts + excluded.shifts, minutes = minutes + excluded.minutes, pay_minor = pay_minor + excluded.pay_minor;
	INSERT INTO shift_labor_week_shifters (business_id, week_start, shifter_id, currency, shifts, minutes, pay_minor)
	  SELECT OLD.business_id, (OLD.starts_at - ((((OLD.starts_at - 345600000) % 604800000) + 604800000) % 604800000)), coalesce(OLD.shifter_id, ''), OLD.currency, -1, -x.m, -(CASE WHEN (x.m * OLD.hourly_rate_minor) >= 0 THEN ((x.m * OLD.hourly_rate_minor) + 30) / 60 ELSE -((30 - (x.m * OLD.hourly_rate_minor)) / 60) END)
	  FROM (SELECT (((OLD.ends_at - OLD.starts_at + 30000) - ((((OLD.ends_at - OLD.starts_at + 30000) % 60000) + 60000) % 60000)) / 60000) AS m) x WHERE (OLD.request_status IN (2, 5) AND OLD.shift_end_at IS NOT NULL AND OLD.is_noshow = 0)
	  ON CONFLICT (business_id, week_start, shifter_id, currency) DO UPDATE SET
	    shifts = shifts + excluded.shifts, minutes = minutes + excluded.minutes, pay_minor = pay_minor + excluded.pay_minor;
	INSERT INTO shift_crew_window (business_id, shifter_id, currency, worked, minutes, pay_minor, no_shows, cancels)
	  SELECT OLD.business_id, OLD.shifter_id, OLD.currency, -x.w, -x.w * x.m, -x.w * (CASE WHEN (x.m * OLD.hourly_rate_minor) >= 0 THEN ((x.m * OLD.hourly_rate_minor) + 30) / 60 ELSE -((30 - (x.m * OLD.hourly_rate_minor)) / 60) END),
	    -(x.w = 0 AND OLD.is_noshow = 1), -(x.w = 0 AND OLD.is_noshow = 0 AND OLD.cancelled_by IS 'shifter')
	  FROM (SELECT (OLD.request_status IN (2, 5) AND OLD.shift_end_at IS NOT NULL AND OLD.is_noshow = 0) AS w, (((OLD.ends_at - OLD.starts_at + 30000) - ((((OLD.ends_at - OLD.starts_at + 30000) % 60000) + 60000) % 60000)) / 60000) AS m) x, shift_rollup_windows rw
	  WHERE rw.name = 'crew' AND OLD.starts_at >= rw.covers_from AND OLD.starts_at < rw.covers_to AND ((OLD.request_status IN (2, 5) AND OLD.shift_end_at IS NOT NULL AND OLD.is_noshow = 0) OR (OLD.shifter_id IS NOT NULL AND (OLD.is_noshow = 1 OR OLD.cancelled_by = 'shifter')))
	  ON CONFLICT (business_id, shifter_id, currency) DO UPDATE SET
	    worked = worked + excluded.worked, minutes = minutes + excluded.minutes, pay_minor = pay_minor + excluded.pay_minor,
	    no_shows = no_shows + excluded.no_shows, cancels = cancels + excluded.cancels;
	INSERT INTO shift_rate_window (city_id, state_id, country_id, shiftrole_id, currency, rate_minor, shifts)
	  SELECT coalesce(b.city_id, 0), coalesce(b.state_id, 0), coalesce(b.country_id, 0), r.role, OLD.currency, OLD.hourly_rate_minor, -1
	  FROM businesses b, shift_rollup_windows rw, (SELECT OLD.shiftrole_id AS role UNION ALL SELECT 0) r
	  WHERE b.id = OLD.business_id AND rw.name = 'going_rate' AND OLD.starts_at >= rw.covers_from AND OLD.starts_at < rw.covers_to
	    AND (OLD.request_status IN (2, 5) AND OLD.shift_end_at IS NOT NULL AND OLD.is_noshow = 0)
	  ON CONFLICT (city_id, shiftrole_id, currency, rate_minor, state_id, country_id) DO UPDATE SET shifts = shifts + excluded.shifts;
	INSERT INTO shift_labor_weeks (business_id, week_start, shiftrole_id, currency, shifts, minutes, pay_minor)
	  SELECT NEW.business_id, (NEW.starts_at - ((((NEW.starts_at - 345600000) % 604800000) + 604800000) % 604800000)), NEW.shiftrole_id, NEW.currency, 1, x.m, (CASE WHEN (x.m * NEW.hourly_rate_minor) >= 0 THEN ((x.m * NEW.hourly_rate_minor) + 30) / 60 ELSE -((30 - (x.m * NEW.hourly_rate_minor)) / 60) END)
	  FROM (SELECT (((NEW.ends_at - NEW.starts_at + 30000) - ((((NEW.ends_at - NEW.starts_at + 30000) % 60000) + 60000) % 60000)) / 60000) AS m) x WHERE (NEW.request_status IN (2, 5) AND NEW.shift_end_at IS NOT NULL AND NEW.is_noshow = 0)
	  ON CONFLICT (business_id, week_start, shiftrole_id, currency) DO UPDATE SET
	    shifts = shifts + excluded.shifts, minutes = minutes + excluded.minutes, pay_minor = pay_minor + excluded.pay_minor;
	INSERT INTO shift_labor_week_shifters (business_id, week_start, shifter_id, currency, shifts, minutes, pay_minor)
	  SELECT NEW.business_id, (NEW.starts_at - ((((NEW.starts_at - 345600000) % 604800000) + 604800000) % 604800000)), coalesce(NEW.shifter_id, ''), NEW.currency, 1, x.m, (CASE WHEN (x.m * NEW.hourly_rate_minor) >= 0 THEN ((x.m * NEW.hourly_rate_minor) + 30) / 60 ELSE -((30 - (x.m * NEW.hourly_rate_minor)) / 60) END)
	  FROM (SELECT (((NEW.ends_at - NEW.starts_at + 30000) - ((((NEW.ends_at - NEW.starts_at + 30000) % 60000) + 60000) % 60000)) / 60000) AS m) x WHERE (NEW.request_status IN (2, 5) AND NEW.shift_end_at IS NOT NULL AND NEW.is_noshow = 0)
	  ON CONFLICT (business_id, week_start, shifter_id, currency) DO UPDATE SET
	    shifts = shifts + excluded.shifts, minutes = minutes + excluded.minutes, pay_minor = pay_minor + excluded.pay_minor;
	INSERT INTO shift_crew_window (business_id, shifter_id, currency, worked, minutes, pay_minor, no_shows, cancels)
	  SELECT NEW.business_id, NEW.shifter_id, NEW.currency, x.w, x.w * x.m, x.w * (CASE WHEN (x.m * NEW.hourly_rate_minor) >= 0 THEN ((x.m * NEW.hourly_rate_minor) + 30) / 60 ELSE -((30 - (x.m * NEW.hourly_rate_minor)) / 60) END),
	    (x.w = 0 AND NEW.is_noshow = 1), (x.w = 0 AND NEW.is_noshow = 0 AND NEW.cancelled_by IS 'shifter')
	  FROM (SELECT (NEW.request_status IN (2, 5) AND NEW.shift_end_at IS NOT NULL AND NEW.is_noshow = 0) AS w, (((NEW.ends_at - NEW.starts_at + 30000) - ((((NEW.ends_at - NEW.starts_at + 30000) % 60000) + 60000) % 60000)) / 60000) AS m) x, shift_rollup_windows rw
	  WHERE rw.name = 'crew' AND NEW.starts_at >= rw.covers_from AND NEW.starts_at < rw.covers_to AND ((NEW.request_status IN (2, 5) AND NEW.shift_end_at IS NOT NULL AND NEW.is_noshow = 0) OR (NEW.shifter_id IS NOT NULL AND (NEW.is_noshow = 1 OR NEW.cancelled_by = 'shifter')))
	  ON CONFLICT (business_id, shifter_id, currency) DO UPDATE SET
	    worked = worked + excluded.worked, minutes = minutes + excluded.minutes, pay_minor = pay_minor + excluded.pay_minor,
	    no_shows = no_shows + excluded.no_shows, cancels = cancels + excluded.cancels;
	INSERT INTO shift_rate_window (city_id, state_id, country_id, shiftrole_id, currency, rate_minor, shifts)
	  SELECT coalesce(b.city_id, 0), coalesce(b.state_id, 0), coalesce(b.country_id, 0), r.role, NEW.currency, NEW.hourly_rate_minor, 1
	  FROM businesses b, shift_rollup_windows rw, (SELECT NEW.shiftrole_id AS role UNION ALL SELECT 0) r
	  WHERE b.id = NEW.business_id AND rw.name = 'going_rate' AND NEW.starts_at >= rw.covers_from AND NEW.starts_at < rw.covers_to
	    AND (NEW.request_status IN (2, 5) AND NEW.shift_end_at IS NOT NULL AND NEW.is_noshow = 0)
	  ON CONFLICT (city_id, shiftrole_id, currency, rate_minor, state_id, country_id) DO UPDATE SET shifts = shifts + excluded.shifts;
END;
--> statement-breakpoint
-- A row deleted with its business (cascade) is already accounted for by shift_rollups_business_bd.
CREATE TRIGGER `shift_rollups_ad` AFTER DELETE ON `shift_requests` WHEN ((OLD.request_status IN (2, 5) AND OLD.shift_end_at IS NOT NULL AND OLD.is_noshow = 0) OR (OLD.shifter_id IS NOT NULL AND (OLD.is_noshow = 1 OR OLD.cancelled_by = 'shifter'))) AND EXISTS (SELECT 1 FROM businesses WHERE id = OLD.business_id) BEGIN
	INSERT INTO shift_labor_weeks (business_id, week_start, shiftrole_id, currency, shifts, minutes, pay_minor)
	  SELECT OLD.business_id, (OLD.starts_at - ((((OLD.starts_at - 345600000) % 604800000) + 604800000) % 604800000)), OLD.shiftrole_id, OLD.currency, -1, -x.m, -(CASE WHEN (x.m * OLD.hourly_rate_minor) >= 0 THEN ((x.m * OLD.hourly_rate_minor) + 30) / 60 ELSE -((30 - (x.m * OLD.hourly_rate_minor)) / 60) END)
	  FROM (SELECT (((OLD.ends_at - OLD.starts_at + 30000) - ((((OLD.ends_at - OLD.starts_at + 30000) % 60000) + 60000) % 60000)) / 60000) AS m) x WHERE (OLD.request_status IN (2, 5) AND OLD.shift_end_at IS NOT NULL AND OLD.is_noshow = 0)
	  ON CONFLICT (business_id, week_start, shiftrole_id, currency) DO UPDATE SET
	    shifts = shifts + excluded.shifts, minutes = minutes + excluded.minutes, pay_minor = pay_minor + excluded.pay_minor;
	INSERT INTO shift_labor_week_shifters (business_id, week_start, shifter_id, currency, shifts, minutes, pay_minor)
	  SELECT OLD.business_id, (OLD.starts_at - ((((OLD.starts_at - 345600000) % 604800000) + 604800000) % 604800000)), coalesce(OLD.shifter_id, ''), OLD.currency, -1, -x.m, -(CASE WHEN (x.m * OLD.hourly_rate_minor) >= 0 THEN ((x.m * OLD.hourly_rate_minor) + 30) / 60 ELSE -((30 - (x.m * OLD.hourly_rate_minor)) / 60) END)
	  FROM (SELECT (((OLD.ends_at - OLD.starts_at + 30000) - ((((OLD.ends_at - OLD.starts_at + 30000) % 60000) + 60000) % 60000)) / 60000) AS m) x WHERE (OLD.request_status IN (2, 5) AND OLD.shift_end_at IS NOT NULL AND OLD.is_noshow = 0)
	  ON CONFLICT (business_id, week_start, shifter_id, currency) DO UPDATE SET
	    shifts = shifts + excluded.shifts, minutes = minutes + excluded.minutes, pay_minor = pay_minor + excluded.pay_minor;
	INSERT INTO shift_crew_window (business_id, shifter_id, currency, worked, minutes, pay_minor, no_shows, cancels)
	  SELECT OLD.business_id, OLD.shifter_id, OLD.currency, -x.w, -x.w * x.m, -x.w * (CASE WHEN (x.m * OLD.hourly_rate_minor) >= 0 THEN ((x.m * OLD.hourly_rate_minor) + 30) / 60 ELSE -((30 - (x.m * OLD.hourly_rate_minor)) / 60) END),
	    -(x.w = 0 AND OLD.is_noshow = 1), -(x.w = 0 AND OLD.is_noshow = 0 AND OLD.cancelled_by IS 'shifter')
	  FROM (SELECT (OLD.request_status IN (2, 5) AND OLD.shift_end_at IS NOT NULL AND OLD.is_noshow = 0) AS w, (((OLD.ends_at - OLD.starts_at + 30000) - ((((OLD.ends_at - OLD.starts_at + 30000) % 60000) + 60000) % 60000)) / 60000) AS m) x, shift_rollup_windows rw
	  WHERE rw.name = 'crew' AND OLD.starts_at >= rw.covers_from AND OLD.starts_at < rw.covers_to AND ((OLD.request_status IN (2, 5) AND OLD.shift_end_at IS NOT NULL AND OLD.is_noshow = 0) OR (OLD.shifter_id IS NOT NULL AND (OLD.is_noshow = 1 OR OLD.cancelled_by = 'shifter')))
	  ON CONFLICT (business_id, shifter_id, currency) DO UPDATE SET
	    worked = worked + excluded.worked, minutes = minutes + excluded.minutes, pay_minor = pay_minor + excluded.pay_minor,
	    no_shows = no_shows + excluded.no_shows, cancels = cancels + excluded.cancels;
	INSERT INTO shift_rate_window (city_id, state_id, country_id, shiftrole_id, currency, rate_minor, shifts)
	  SELECT coalesce(b.city_id, 0), coalesce(b.state_id, 0), coalesce(b.country_id, 0), r.role, OLD.currency, OLD.hourly_rate_minor, -1
	  FROM businesses b, shift_rollup_windows rw, (SELECT OLD.shiftrole_id AS role UNION ALL SELECT 0) r
	  WHERE b.id = OLD.business_id AND rw.name = 'going_rate' AND OLD.starts_at >= rw.covers_from AND OLD.starts_at < rw.covers_to
	    AND (OLD.request_status IN (2, 5) AND OLD.shift_end_at IS NOT NULL AND OLD.is_noshow = 0)
	  ON CONFLICT (city_id, shiftrole_id, currency, rate_minor, state_id, country_id) DO UPDATE SET shifts = shifts + excluded.shifts;
END;
--> statement-breakpoint
-- The going rate counts a shift where its business is: a business that moves takes its shifts along.
CREATE TRIGGER `shift_rollups_business_au` AFTER UPDATE OF `city_id`, `state_id`, `country_id` ON `businesses`
WHEN OLD.city_id IS NOT NEW.city_id OR OLD.state_id IS NOT NEW.state_id OR OLD.country_id IS NOT NEW.country_id BEGIN
	INSERT INTO shift_rate_window (city_id, state_id, country_id, shiftrole_id, currency, rate_minor, shifts)
	  SELECT coalesce(OLD.city_id, 0), coalesce(OLD.state_id, 0), coalesce(OLD.country_id, 0),
	    (CASE WHEN r.per_role THEN s.shiftrole_id ELSE 0 END), s.currency, s.hourly_rate_minor, -count(*)
	  FROM shift_requests s, shift_rollup_windows rw, (SELECT 1 AS per_role UNION ALL SELECT 0) r
	  WHERE s.business_id = OLD.id AND rw.name = 'going_rate' AND s.starts_at >= rw.covers_from AND s.starts_at < rw.covers_to
	    AND (s.request_status IN (2, 5) AND s.shift_end_at IS NOT NULL AND s.is_noshow = 0)
	  GROUP BY 4, 5, 6
	  ON CONFLICT (city_id, shiftrole_id, currency, rate_minor, state_id, country_id) DO UPDATE SET shifts = shifts + excluded.shifts;
	INSERT INTO shift_rate_window (city_id, state_id, country_id, shiftrole_id, currency, rate_minor, shifts)
	  SELECT coalesce(NEW.city_id, 0), coalesce(NEW.state_id, 0), coalesce(NEW.country_id, 0),
	    (CASE WHEN r.per_role THEN s.shiftrole_id ELSE 0 END), s.currency, s.hourly_rate_minor, count(*)
	  FROM shift_requests s, shift_rollup_windows rw, (SELECT 1 AS per_role UNION ALL SELECT 0) r
	  WHERE s.business_id = NEW.id AND rw.name = 'going_rate' AND s.starts_at >= rw.covers_from AND s.starts_at < rw.covers_to
	    AND (s.request_status IN (2, 5) AND s.shift_end_at IS NOT NULL AND s.is_noshow = 0)
	  GROUP BY 4, 5, 6
	  ON CONFLICT (city_id, shiftrole_id, currency, rate_minor, state_id, country_id) DO UPDATE SET shifts = shifts + excluded.shifts;
END;
--> statement-breakpoint
CREATE TRIGGER `shift_rollups_business_bd` BEFORE DELETE ON `businesses` BEGIN
	INSERT INTO shift_rate_window (city_id, state_id, country_id, shiftrole_id, currency, rate_minor, shifts)
	  SELECT coalesce(OLD.city_id, 0), coalesce(OLD.state_id, 0), coalesce(OLD.country_id, 0),
	    (CASE WHEN r.per_role THEN s.shiftrole_id ELSE 0 END), s.currency, s.hourly_rate_minor, -count(*)
	  FROM shift_requests s, shift_rollup_windows rw, (SELECT 1 AS per_role UNION ALL SELECT 0) r
	  WHERE s.business_id = OLD.id AND rw.name = 'going_rate' AND s.starts_at >= rw.covers_from AND s.starts_at < rw.covers_to
	    AND (s.request_status IN (2, 5) AND s.shift_end_at IS NOT NULL AND s.is_noshow = 0)
	  GROUP BY 4, 5, 6
	  ON CONFLICT (city_id, shiftrole_id, currency, rate_minor, state_id, country_id) DO UPDATE SET shifts = shifts + excluded.shifts;
	DELETE FROM shift_labor_weeks WHERE business_id = OLD.id;
	DELETE FROM shift_labor_week_shifters WHERE business_id = OLD.id;
	DELETE FROM shift_crew_window WHERE business_id = OLD.id;
END;
--> statement-breakpoint
-- The labor rollups cover every week: filled from the rows already worked.
INSERT INTO shift_labor_weeks (business_id, week_start, shiftrole_id, currency, shifts, minutes, pay_minor)
SELECT business_id, wk, shiftrole_id, currency, count(*), sum(m), sum((CASE WHEN (m * hourly_rate_minor) >= 0 THEN ((m * hourly_rate_minor) + 30) / 60 ELSE -((30 - (m * hourly_rate_minor)) / 60) END)) FROM (
  SELECT *, (((s.ends_at - s.starts_at + 30000) - ((((s.ends_at - s.starts_at + 30000) % 60000) + 60000) % 60000)) / 60000) AS m, (s.starts_at - ((((s.starts_at - 345600000) % 604800000) + 604800000) % 604800000)) AS wk FROM shift_requests s WHERE (s.request_status IN (2, 5) AND s.shift_end_at IS NOT NULL AND s.is_noshow = 0)
) GROUP BY 1, 2, 3, 4;
--> statement-breakpoint
INSERT INTO shift_labor_week_shifters (business_id, week_start, shifter_id, currency, shifts, minutes, pay_minor)
SELECT business_id, wk, coalesce(shifter_id, ''), currency, count(*), sum(m), sum((CASE WHEN (m * hourly_rate_minor) >= 0 THEN ((m * hourly_rate_minor) + 30) / 60 ELSE -((30 - (m * hourly_rate_minor)) / 60) END)) FROM (
  SELECT *, (((s.ends_at - s.starts_at + 30000) - ((((s.ends_at - s.starts_at + 30000) % 60000) + 60000) % 60000)) / 60000) AS m, (s.starts_at - ((((s.starts_at - 345600000) % 604800000) + 604800000) % 604800000)) AS wk FROM shift_requests s WHERE (s.request_status IN (2, 5) AND s.shift_end_at IS NOT NULL AND s.is_noshow = 0)
) GROUP BY 1, 2, 3, 4;
--> statement-breakpoint
-- The windowed ones start empty; the 5-minute job fills them and moves them with the clock.
INSERT INTO `shift_rollup_windows` (`name`, `covers_from`, `covers_to`) VALUES ('crew', 0, 0), ('going_rate', 0, 0);
--> statement-breakpoint
-- Inbox order per party (conversation_participants.last_message_at) follows the thread's latest message.
UPDATE `conversation_participants` SET `last_message_at` = (SELECT c.last_message_at FROM conversations c WHERE c.id = conversation_id);
--> statement-breakpoint
CREATE TRIGGER `conversation_participants_order_au` AFTER UPDATE OF `last_message_at` ON `conversations` BEGIN
	UPDATE conversation_participants SET last_message_at = NEW.last_message_at WHERE conversation_id = NEW.id;
END;
--> statement-breakpoint
CREATE TRIGGER `conversation_participants_order_ai` AFTER INSERT ON `conversation_participants` BEGIN
	UPDATE conversation_participants SET last_message_at = (SELECT c.last_message_at FROM conversations c WHERE c.id = NEW.conversation_id)
	WHERE conversation_id = NEW.conversation_id AND party_kind = NEW.party_kind AND party_id = NEW.party_id;
END;
