CREATE TABLE `open_broadcast_groups` (
	`business_id` text NOT NULL,
	`shiftrole_id` integer NOT NULL,
	`currency` text NOT NULL,
	`open_count` integer NOT NULL,
	`best_rate_minor` integer NOT NULL,
	PRIMARY KEY(`business_id`, `shiftrole_id`, `currency`)
);
--> statement-breakpoint
INSERT INTO `open_broadcast_groups` (business_id, shiftrole_id, currency, open_count, best_rate_minor)
  SELECT business_id, shiftrole_id, currency, count(*), max(hourly_rate_minor) FROM shift_requests
  WHERE request_status = 1 AND is_broadcast = 1 GROUP BY business_id, shiftrole_id, currency;
--> statement-breakpoint
CREATE TRIGGER `open_broadcast_groups_ai` AFTER INSERT ON `shift_requests` WHEN NEW.request_status = 1 AND NEW.is_broadcast = 1 BEGIN
	INSERT INTO open_broadcast_groups (business_id, shiftrole_id, currency, open_count, best_rate_minor)
	  VALUES (NEW.business_id, NEW.shiftrole_id, NEW.currency, 1, NEW.hourly_rate_minor)
	  ON CONFLICT (business_id, shiftrole_id, currency) DO UPDATE SET
	    open_count = open_count + 1, best_rate_minor = max(best_rate_minor, excluded.best_rate_minor);
END;
--> statement-breakpoint
CREATE TRIGGER `open_broadcast_groups_au` AFTER UPDATE OF `request_status`, `is_broadcast`, `business_id`, `shiftrole_id`, `currency`, `hourly_rate_minor` ON `shift_requests`
WHEN (OLD.request_status = 1 AND OLD.is_broadcast = 1) OR (NEW.request_status = 1 AND NEW.is_broadcast = 1) BEGIN
	UPDATE open_broadcast_groups SET open_count = open_count - 1,
	    best_rate_minor = coalesce((SELECT max(s.hourly_rate_minor) FROM shift_requests s WHERE s.business_id = OLD.business_id
	      AND s.shiftrole_id = OLD.shiftrole_id AND s.currency = OLD.currency AND s.request_status = 1 AND s.is_broadcast = 1), 0)
	  WHERE OLD.request_status = 1 AND OLD.is_broadcast = 1
	    AND business_id = OLD.business_id AND shiftrole_id = OLD.shiftrole_id AND currency = OLD.currency;
	DELETE FROM open_broadcast_groups
	  WHERE business_id = OLD.business_id AND shiftrole_id = OLD.shiftrole_id AND currency = OLD.currency AND open_count <= 0;
	INSERT INTO open_broadcast_groups (business_id, shiftrole_id, currency, open_count, best_rate_minor)
	  SELECT NEW.business_id, NEW.shiftrole_id, NEW.currency, 1, NEW.hourly_rate_minor WHERE NEW.request_status = 1 AND NEW.is_broadcast = 1
	  ON CONFLICT (business_id, shiftrole_id, currency) DO UPDATE SET
	    open_count = open_count + 1, best_rate_minor = max(best_rate_minor, excluded.best_rate_minor);
END;
--> statement-breakpoint
CREATE TRIGGER `open_broadcast_groups_ad` AFTER DELETE ON `shift_requests` WHEN OLD.request_status = 1 AND OLD.is_broadcast = 1 BEGIN
	UPDATE open_broadcast_groups SET open_count = open_count - 1,
	    best_rate_minor = coalesce((SELECT max(s.hourly_rate_minor) FROM shift_requests s WHERE s.business_id = OLD.business_id
	      AND s.shiftrole_id = OLD.shiftrole_id AND s.currency = OLD.currency AND s.request_status = 1 AND s.is_broadcast = 1), 0)
	  WHERE business_id = OLD.business_id AND shiftrole_id = OLD.shiftrole_id AND currency = OLD.currency;
	DELETE FROM open_broadcast_groups
	  WHERE business_id = OLD.business_id AND shiftrole_id = OLD.shiftrole_id AND currency = OLD.currency AND open_count <= 0;
END;
