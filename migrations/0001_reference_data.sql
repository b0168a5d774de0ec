-- Reference data the shift lifecycle needs. Ids are stable: clients and seed data refer to them.
INSERT INTO currencies (code, name, minor_unit) VALUES
  ('USD', 'US Dollar', 2),
  ('CAD', 'Canadian Dollar', 2),
  ('GBP', 'Pound Sterling', 2),
  ('EUR', 'Euro', 2),
  ('AUD', 'Australian Dollar', 2),
  ('JPY', 'Yen', 0);
--> statement-breakpoint
INSERT INTO shift_roles (id, slug, label, is_active) VALUES
  (1, 'server', 'Server', 1),
  (2, 'bartender', 'Bartender', 1),
  (3, 'line-cook', 'Line Cook', 1),
  (4, 'dishwasher', 'Dishwasher', 1),
  (5, 'host', 'Host', 1),
  (6, 'barista', 'Barista', 1),
  (7, 'cashier', 'Cashier', 1),
  (8, 'warehouse-associate', 'Warehouse Associate', 1),
  (9, 'delivery-driver', 'Delivery Driver', 1),
  (10, 'housekeeper', 'Housekeeper', 1),
  (11, 'security-guard', 'Security Guard', 1),
  (12, 'event-staff', 'Event Staff', 1),
  (13, 'retail-associate', 'Retail Associate', 1),
  (14, 'care-assistant', 'Care Assistant', 1),
  (15, 'prep-cook', 'Prep Cook', 1);
--> statement-breakpoint
INSERT INTO countries (id, code, name, currency) VALUES
  (1, 'US', 'United States', 'USD'),
  (2, 'CA', 'Canada', 'CAD'),
  (3, 'GB', 'United Kingdom', 'GBP'),
  (4, 'DE', 'Germany', 'EUR'),
  (5, 'AU', 'Australia', 'AUD');
--> statement-breakpoint
INSERT INTO states (id, country_id, code, name) VALUES
  (1, 1, 'NY', 'New York'),
  (2, 1, 'CA', 'California'),
  (3, 1, 'IL', 'Illinois'),
  (4, 1, 'TX', 'Texas'),
  (5, 1, 'AZ', 'Arizona'),
  (6, 2, 'ON', 'Ontario'),
  (7, 2, 'BC', 'British Columbia'),
  (8, 3, 'ENG', 'England'),
  (9, 4, 'BE', 'Berlin'),
  (10, 5, 'NSW', 'New South Wales');
--> statement-breakpoint
INSERT INTO cities (id, state_id, country_id, name, timezone, latitude, longitude) VALUES
  (1, 1, 1, 'New York', 'America/New_York', 40.7128, -74.006),
  (2, 1, 1, 'Buffalo', 'America/New_York', 42.8864, -78.8784),
  (3, 2, 1, 'Los Angeles', 'America/Los_Angeles', 34.0522, -118.2437),
  (4, 2, 1, 'San Francisco', 'America/Los_Angeles', 37.7749, -122.4194),
  (5, 3, 1, 'Chicago', 'America/Chicago', 41.8781, -87.6298),
  (6, 4, 1, 'Austin', 'America/Chicago', 30.2672, -97.7431),
  (7, 5, 1, 'Phoenix', 'America/Phoenix', 33.4484, -112.074),
  (8, 6, 2, 'Toronto', 'America/Toronto', 43.6532, -79.3832),
  (9, 7, 2, 'Vancouver', 'America/Vancouver', 49.2827, -123.1207),
  (10, 8, 3, 'London', 'Europe/London', 51.5074, -0.1278),
  (11, 8, 3, 'Manchester', 'Europe/London', 53.4808, -2.2426),
  (12, 9, 4, 'Berlin', 'Europe/Berlin', 52.52, 13.405),
  (13, 10, 5, 'Sydney', 'Australia/Sydney', -33.8688, 151.2093);
