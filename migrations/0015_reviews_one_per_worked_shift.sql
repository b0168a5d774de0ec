ALTER TABLE `reviews` ADD `counted_shift_id` text REFERENCES shift_requests(id);--> statement-breakpoint
-- Existing reviews count against a worked shift too: a pinned one against its pin; an unpinned one,
-- row by row, against the latest worked shift of the pair its party has not yet counted a review
-- against. Rows beyond the pair's worked shifts keep NULL (and still count in the service's total).
UPDATE `reviews` SET `counted_shift_id` = `shift_request_id` WHERE `shift_request_id` IS NOT NULL AND `counted_shift_id` IS NULL;--> statement-breakpoint
UPDATE `reviews` SET `counted_shift_id` = (
  SELECT s.`id` FROM `shift_requests` s
   WHERE s.`business_id` = CASE `reviews`.`review_by` WHEN 'business' THEN `reviews`.`review_by_id` ELSE `reviews`.`review_on_id` END
     AND s.`shifter_id` = CASE `reviews`.`review_by` WHEN 'shifter' THEN `reviews`.`review_by_id` ELSE `reviews`.`review_on_id` END
     AND s.`request_status` IN (2, 5) AND s.`shift_end_at` IS NOT NULL AND s.`is_noshow` = 0
     AND NOT EXISTS (SELECT 1 FROM `reviews` r WHERE r.`review_by` = `reviews`.`review_by` AND r.`review_by_id` = `reviews`.`review_by_id` AND r.`counted_shift_id` = s.`id`)
   ORDER BY s.`starts_at` DESC, s.`id` DESC LIMIT 1)
 WHERE `shift_request_id` IS NULL AND `counted_shift_id` IS NULL;--> statement-breakpoint
-- Should two unpinned rows have taken one shift in that single statement, the pinned or older keeps it.
UPDATE `reviews` SET `counted_shift_id` = NULL
 WHERE `counted_shift_id` IS NOT NULL AND `id` NOT IN (
   SELECT `id` FROM (
     SELECT `id`, ROW_NUMBER() OVER (
       PARTITION BY `review_by`, `review_by_id`, `counted_shift_id`
       ORDER BY (`shift_request_id` IS NULL), `created_at`, `id`) AS `n`
       FROM `reviews` WHERE `counted_shift_id` IS NOT NULL)
   WHERE `n` = 1);--> statement-breakpoint
CREATE UNIQUE INDEX `reviews_one_per_worked_shift` ON `reviews` (`review_by`,`review_by_id`,`counted_shift_id`) WHERE counted_shift_id IS NOT NULL;
