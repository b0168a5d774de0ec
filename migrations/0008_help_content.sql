-- Help center full-text search: an FTS5 index over help_articles (external content, so the text is
-- stored once), kept in step by triggers; ranked with bm25() at query time. Articles and videos
-- themselves are seeded below.
CREATE VIRTUAL TABLE `help_articles_fts` USING fts5(
	title, summary, body, tags,
	content='help_articles', content_rowid='rowid',
	tokenize='porter unicode61'
);
--> statement-breakpoint
CREATE TRIGGER `help_articles_fts_ai` AFTER INSERT ON `help_articles` BEGIN
	INSERT INTO help_articles_fts(rowid, title, summary, body, tags) VALUES (new.rowid, new.title, new.summary, new.body, new.tags);
END;
--> statement-breakpoint
CREATE TRIGGER `help_articles_fts_ad` AFTER DELETE ON `help_articles` BEGIN
	INSERT INTO help_articles_fts(help_articles_fts, rowid, title, summary, body, tags) VALUES ('delete', old.rowid, old.title, old.summary, old.body, old.tags);
END;
--> statement-breakpoint
-- Only a change of the indexed text re-indexes the row: a feedback vote updates the counters alone.
CREATE TRIGGER `help_articles_fts_au` AFTER UPDATE OF `title`, `summary`, `body`, `tags` ON `help_articles` BEGIN
	INSERT INTO help_articles_fts(help_articles_fts, rowid, title, summary, body, tags) VALUES ('delete', old.rowid, old.title, old.summary, old.body, old.tags);
	INSERT INTO help_articles_fts(rowid, title, summary, body, tags) VALUES (new.rowid, new.title, new.summary, new.body, new.tags);
END;
--> statement-breakpoint
-- Videos are searched the same way, over their title, description and transcript.
CREATE VIRTUAL TABLE `help_videos_fts` USING fts5(
	title, description, transcript,
	content='help_videos', content_rowid='rowid',
	tokenize='porter unicode61'
);
--> statement-breakpoint
CREATE TRIGGER `help_videos_fts_ai` AFTER INSERT ON `help_videos` BEGIN
	INSERT INTO help_videos_fts(rowid, title, description, transcript) VALUES (new.rowid, new.title, new.description, new.transcript);
END;
--> statement-breakpoint
CREATE TRIGGER `help_videos_fts_ad` AFTER DELETE ON `help_videos` BEGIN
	INSERT INTO help_videos_fts(help_videos_fts, rowid, title, description, transcript) VALUES ('delete', old.rowid, old.title, old.description, old.transcript);
END;
--> statement-breakpoint
CREATE TRIGGER `help_videos_fts_au` AFTER UPDATE OF `title`, `description`, `transcript` ON `help_videos` BEGIN
	INSERT INTO help_videos_fts(help_videos_fts, rowid, title, description, transcript) VALUES ('delete', old.rowid, old.title, old.description, old.transcript);
	INSERT INTO help_videos_fts(rowid, title, description, transcript) VALUES (new.rowid, new.title, new.description, new.transcript);
END;
--> statement-breakpoint
-- The help center content: articles (Markdown) and videos, indexed by the triggers above.
INSERT INTO `help_articles` (`id`, `title`, `summary`, `body`, `category`, `tags`, `position`, `helpful_count`, `not_helpful_count`, `created_at`, `updated_at`) VALUES (
	'getting-started', 'Getting started with Shiftmarket',
	'What shifters and businesses do on Shiftmarket, how to create an account, and where to go next.',
	'Shiftmarket is a marketplace for shift work. **Businesses** post shifts, either to one chosen shifter
or as a broadcast to their whole crew. **Shifters** accept or claim those shifts, clock in and out, and
track what they earned. One account can hold both a shifter profile and a business profile (a
*dual profile*), and one owner can run several businesses.

## Create an account

1. Register with `POST /v1/auth/register`: your `email`, a `password` of at least 10 characters, a
   `display_name`, and a `shifter` object, a `business` object, or both. A business needs at least a
   `name` and an IANA `timezone` such as `America/New_York`.
2. A 6-digit code arrives by email. It is valid for 15 minutes.
3. Verify with `POST /v1/auth/verify_email`, sending the `email`, the `code` and the same `password`.
   The answer holds your **personal API key**, shown this one time only. Keep it somewhere safe.

An address counts as taken only once it is verified. If you register again before verifying, the
earlier registration is replaced and the new password applies.

You can also sign in on the web at `/login` with your email and password. The pages under `/account`
let you change your display name and phone, rotate your API key, change your password, see your
sign-in sessions and set up two-factor sign-in.

## Add the other profile later

A shifter who also runs a business creates it with `POST /v1/business/create`. A business owner who
also works shifts adds a shifter profile with `POST /v1/shifter/create`. Your first business is your
default one. `POST /v1/business/{id}/make_default` changes it, and calls that leave out `business_id`
act for the default business.

## Where to go next

- Businesses: build your crew (see *Build your crew with connections*), then post a shift or a
  broadcast.
- Shifters: connect with the businesses you work for. Their broadcasts then show up for you to claim.
- Developers: every screen in the app is built on the same `/v1/` API. The interactive reference is
  at `/v1/docs` and the OpenAPI document at `/v1/openapi.json`.

Times of shifts are always wall-clock times in the **business''s** time zone. A shift from 22:00 to
06:00 ends the next morning.
',
	'getting-started', 'start register account signup verify profile shifter business dual', 1, 0, 0, 1795305600000, 1795305600000
);
--> statement-breakpoint
INSERT INTO `help_articles` (`id`, `title`, `summary`, `body`, `category`, `tags`, `position`, `helpful_count`, `not_helpful_count`, `created_at`, `updated_at`) VALUES (
	'post-a-targeted-shift', 'Post a shift to one shifter',
	'Send a shift request to one connected shifter: the fields, the rules, and what happens next.',
	'A **targeted** shift request goes to one shifter you choose. It waits as *pending* until that shifter
accepts or declines it, or until its start time passes.

## Before you post

- The shifter must be **connected** to your business, which means an accepted connection (see *Build
  your crew with connections*). Otherwise the request is refused with `SHFT-NOT-CONNECTED-ERR`.
- A shifter who has paused incoming requests cannot receive one (`SHIFTER-PAUSED-ERR`). Their public
  profile shows a Paused badge.
- You post as the business owner, an active teammate or an admin.

## Post it

`POST /v1/shift_request/send_request` with:

| field | meaning |
|---|---|
| `business_id` | optional; defaults to your default business |
| `shifter_id` | the shifter you are asking |
| `shift_date` | `YYYY-MM-DD`, in the business''s time zone |
| `shift_in`, `shift_out` | `HH:MM` (24-hour). A `shift_out` earlier than `shift_in` ends the next day |
| `shiftrole_id` | the role, e.g. server, bartender, barista |
| `hourly_rate` | per hour, for example `18.50` |
| `currency` | optional; defaults to the business''s currency |
| `note` | optional, up to 1,000 characters, shown to the shifter |
| `is_broadcast` | `0` (or leave it out) for a targeted request |

The shift must start in the future and last between 1 minute and 24 hours. `shift_in` and `shift_out`
cannot be equal. A rate with more decimals than its currency allows (such as `18.505` USD) is refused,
never rounded. Across a daylight-saving change the shift has its true length, for example 7 or 9 hours
for a 22:00 to 06:00 shift.

The shifter is notified. The answer is the new request with `request_status` 1 (pending).

## After posting

- **Accepted** (status 2): the shift is on both calendars.
- **Declined** (status 3): the shifter said no, possibly with a reason.
- **Expired** (status 6): nobody answered before the start time. A job checks every 5 minutes.
- **Change it** while it is pending with `PUT /v1/shift_request/change_request`, sending
  `shift_request_id` and only the fields you change. The original becomes *superseded* (status 4) and
  a new pending request with a `parent_id` pointing at it replaces it.

Follow your requests with `POST /v1/shift_request/list_of_requests`. You can filter by `status`,
`date_from`/`date_to`, `shiftrole_id` or `counterparty_id`.
',
	'posting', 'post send request targeted shift shifter rate role date time overnight note change', 1, 0, 0, 1795305600000, 1795305600000
);
--> statement-breakpoint
INSERT INTO `help_articles` (`id`, `title`, `summary`, `body`, `category`, `tags`, `position`, `helpful_count`, `not_helpful_count`, `created_at`, `updated_at`) VALUES (
	'broadcast-a-shift', 'Broadcast a shift to your whole crew',
	'Post one open shift to every connected shifter; the first one to claim it gets it.',
	'A **broadcast** is an open shift offered to your whole crew: every shifter with an accepted
connection to your business. The first shifter to claim it gets it.

## Post a broadcast

Use `POST /v1/shift_request/send_request` as for a targeted shift, but send `is_broadcast: 1` and leave
`shifter_id` blank:

```json
{
  "shift_date": "2026-12-05",
  "shift_in": "17:00",
  "shift_out": "23:00",
  "shiftrole_id": 2,
  "hourly_rate": 22,
  "is_broadcast": 1,
  "note": "Holiday party, black shirt"
}
```

Crew members who are accepting requests are notified. While nobody has claimed it, the broadcast is
*pending* (`request_status` 1 with `is_broadcast` 1) and appears in their
`POST /v1/shift_request/list_of_broadcast_requests`.

## Who gets it

- **First claim wins.** Claims on one broadcast are handled one at a time, so when many shifters tap at
  once exactly one wins. The others get `409 CLAIM-LOST-ERR`.
- A shifter cannot claim a broadcast that overlaps a shift they already accepted (`SHFT-CONFLICT-ERR`),
  or one whose start has passed.
- As the owner you see your broadcasts as the business, and you cannot claim them yourself
  (`SHFT-OWN-BUSINESS-ERR`), even with a shifter profile. The same goes for a teammate, unless that
  teammate is also a shifter in your crew: then they claim like any crew member.
- Once claimed, the row becomes an accepted shift (status 2) with the winner as its shifter.

An unclaimed broadcast expires when its start time passes.

## Auto-fill when someone cancels

Turn on `auto_fill_on_cancel` with `PUT /v1/business/update_settings`. When a shifter cancels an
accepted shift at least 2 hours before its start, Shiftmarket re-posts it as a new broadcast with
the same date, times, role, rate and note. The new broadcast has a `parent_id` pointing at the
cancelled shift, and the crew is notified, except the shifter who cancelled. The minimum lead time is
an operator setting (`AUTO_FILL_MIN_LEAD_MINUTES`, default 120).

## Tips

- Broadcasts suit busy nights and last-minute gaps. Use a targeted request when you need one person.
- Recurring broadcasts, such as every Friday evening, are easiest with a template (see *Repeat shifts
  with templates*).
',
	'posting', 'broadcast open shift crew claim first wins auto-fill notify', 2, 0, 0, 1795305600000, 1795305600000
);
--> statement-breakpoint
INSERT INTO `help_articles` (`id`, `title`, `summary`, `body`, `category`, `tags`, `position`, `helpful_count`, `not_helpful_count`, `created_at`, `updated_at`) VALUES (
	'shift-templates', 'Repeat shifts with templates',
	'Save a weekly shift pattern once and generate the pending requests for up to 12 weeks ahead.',
	'A **shift template** is a weekly pattern, such as "Barista, Monday to Friday, 07:00 to 15:00". From it
you generate the actual shift requests for the coming weeks.

## Create a template

`POST /v1/shift_templates/create` with:

- `business_id`, `label` (up to 120 characters)
- `days_of_week`: ISO weekdays, `1` = Monday to `7` = Sunday, as `"1,3,5"` or `[1, 3, 5]`
- `shift_in`, `shift_out` (`HH:MM`; an earlier `shift_out` ends the next day)
- `shiftrole_id`, `hourly_rate`, and optionally `currency_id` (defaults to the business''s currency)
- `default_shifter_id` for a targeted template. That shifter must be connected to the business.
  Without it the template posts broadcasts. `is_broadcast` defaults to `0` when a shifter is given,
  else `1`.
- optional `note`, `is_flexible`, and `is_active` (default on)

The owner, an active teammate or an admin manage templates. List them with
`GET /v1/shift_templates/by_business/{id}`, change one with `PUT /v1/shift_templates/{id}` (only the
fields you send change), and delete one with `DELETE /v1/shift_templates/{id}`. Deleting a template
leaves the shifts it already created in place.

## Generate the shifts

`POST /v1/shift_templates/{id}/generate?weeks=4` creates the pending requests for the template''s
weekdays, from today in the business''s time zone, for the number of weeks asked. The default is 4,
and the value is clamped to 1 to 12.

- It is **safe to repeat**. A date that already has a request with the same business, date and start
  time (and the same shifter, for a targeted template) is skipped, whatever that request''s status. A
  shift someone declined or cancelled is not posted again behind their back.
- Dates whose start has already passed are left out.
- The answer lists `created` and `skipped`. It is `201` when something was created and `200` when
  there was nothing new.
- An inactive template is refused with `TEMPLATE-INACTIVE-ERR`. A targeted template whose shifter is
  no longer connected is refused with `SHFT-NOT-CONNECTED-ERR`.

Each generated request behaves like one you posted by hand: the shifter or crew is notified, and it
expires if nobody takes it before it starts.
',
	'posting', 'template recurring weekly generate repeat schedule days_of_week', 3, 0, 0, 1795305600000, 1795305600000
);
--> statement-breakpoint
INSERT INTO `help_articles` (`id`, `title`, `summary`, `body`, `category`, `tags`, `position`, `helpful_count`, `not_helpful_count`, `created_at`, `updated_at`) VALUES (
	'cancel-change-and-no-shows', 'Cancel a shift or mark a no-show',
	'Who may cancel which shifts, what each refusal means, and how no-shows are recorded.',
	'## Cancelling

Send `POST /v1/shift_request/{id}/cancel` with an optional `reason` (up to 500 characters). The shift
becomes *cancelled* (`request_status` 7) and `cancelled_by` records which side cancelled.

- **The business** (owner, active teammate or admin) may cancel a pending request, an open broadcast
  or an accepted shift.
- **The shifter** may cancel a shift they accepted. A pending request aimed at them is *declined*
  instead (`POST /v1/shift_request/{id}/decline`).
- If your account is both parties (a dual profile working at its own business), send `as: "business"`
  or `as: "shifter"`.

A cancel is refused, each time with its own code, when the shift is:

| code | why |
|---|---|
| `SHFT-STARTED-ERR` | the shifter has already clocked in |
| `SHFT-WORKED-ERR` | the shift has been worked |
| `SHFT-COMPLETED-ERR` | the shift is completed and settled |
| `SHFT-EXPIRED-ERR` | the request expired before anyone took it |
| `SHFT-DECLINED-ERR` | the shifter declined it |
| `SHFT-SUPERSEDED-ERR` | a change request replaced it |
| `SHFT-CANCELLED-ERR` | it is already cancelled |

When a **shifter** cancels and the business has `auto_fill_on_cancel` on, the shift is re-broadcast to
the crew if its start is at least 2 hours away. The answer''s `auto_fill_shift_request_id` names the
new broadcast.

## Marking a no-show

If a shifter does not turn up, the business marks the accepted shift with
`POST /v1/shift_request/{id}/no_show`. This works only **after** the scheduled start and only while
nobody has clocked in. The shift then has `is_noshow` 1, and it can no longer be clocked in. If a
clock-in and a no-show arrive at the same moment, only one of them wins; the other gets
`SHFT-STATE-ERR`.

## How this shows up later

A no-show shift is never counted as worked, so it adds nothing to earnings or labor costs. Crew
analytics (`GET /v1/business/{business_id}/crew/analytics`) give each shifter a **reliability score**
over 90 days: worked shifts divided by worked shifts plus no-shows plus their own cancellations,
times 100. Cancelling early and honestly is always better than not showing up.
',
	'posting', 'cancel cancellation no-show noshow absent refuse reason reliability', 4, 0, 0, 1795305600000, 1795305600000
);
--> statement-breakpoint
INSERT INTO `help_articles` (`id`, `title`, `summary`, `body`, `category`, `tags`, `position`, `helpful_count`, `not_helpful_count`, `created_at`, `updated_at`) VALUES (
	'claim-a-broadcast', 'Find and claim open shifts',
	'See the broadcasts of the businesses you work for, ranked for you, and claim one before anyone else.',
	'Businesses you are connected to can **broadcast** shifts to their whole crew. Any crew member may
claim one, and the first claim wins.

## See what is open

`POST /v1/shift_request/list_of_broadcast_requests` lists the open broadcasts you may claim. These are
the broadcasts of businesses with an accepted connection to your shifter profile, apart from
businesses you own yourself. You can filter with:

- `shift_date`, or `date_from` and `date_to`
- `shiftrole_id`, `business_id`
- `min_rate`, the least hourly rate you want to see
- `limit` (1 to 200) and `cursor` for the next page

Send `sort_by_relevance: true` with your `shifter_id` to rank the list for you. Each row then carries
a `relevance_score` from 0 to 100, built from how well the role fits your history, the pay compared
with what you usually earn (and your counter rules), the distance to the business, how often you
have worked there, and whether you are free. A shift that overlaps one you already accepted is
capped at 10. Without relevance sorting the list is newest first.

## Claim it

`POST /v1/shift_request/{id}/claim`, or `/accept`, which does the same on a broadcast.

- If you are first, the answer is the shift, now accepted (`request_status` 2) with you as its
  shifter. Claiming again later returns the same shift.
- If someone was faster you get `409 CLAIM-LOST-ERR`. Nothing is booked.
- If it overlaps a shift you already accepted you get `409 SHFT-CONFLICT-ERR`, naming that shift. You
  cannot be double-booked, even by two claims at the same moment.
- You cannot claim a broadcast of a business you own (`SHFT-OWN-BUSINESS-ERR`). A teammate of a
  business can claim its broadcasts only when they are also in its crew.

## Before you claim

Check your calendar for the day with
`GET /v1/shift_request/conflicts?shifter_id=…&date=…&shift_in=…&shift_out=…`. It returns your
accepted shifts that overlap the window. The window is read in your own time zone, or in a business''s
when you add its `business_id`. Overlaps are compared on real times, so an overnight shift from the
evening before that runs into your window counts too.

Once a broadcast is claimed (or cancelled, or expired), it disappears from everyone else''s list.
',
	'working', 'claim broadcast open shifts find relevance ranked first wins conflict', 1, 0, 0, 1795305600000, 1795305600000
);
--> statement-breakpoint
INSERT INTO `help_articles` (`id`, `title`, `summary`, `body`, `category`, `tags`, `position`, `helpful_count`, `not_helpful_count`, `created_at`, `updated_at`) VALUES (
	'accept-or-decline', 'Accept or decline a shift request',
	'Answer a request a business sent you, and see what your counter rules suggest asking for.',
	'When a business sends a shift request to you personally, it waits as *pending* until you answer or
its start time passes.

## Find your requests

`POST /v1/shift_request/list_of_requests` with `status: 1` lists your pending requests, newest first.
`GET /v1/shift_request/{id}` shows one. Each has the business, date, times in the business''s time
zone (`timezone`), role, `hourly_rate`, `currency` and the business''s `note`.

## Accept

`POST /v1/shift_request/{id}/accept`. The shift becomes accepted (`request_status` 2) and the
business is told. Accepting is refused with `SHFT-CONFLICT-ERR` when the shift overlaps another shift
you already accepted, and you are never double-booked.

## Decline

`POST /v1/shift_request/{id}/decline`, with an optional `reason` of up to 500 characters. The request
becomes declined (status 3) and the business is told. A declined request cannot be taken back. The
business can send a new one.

If the business changes a pending request (a new time or rate), the original is marked *superseded*
and a new pending request replaces it. Answer the new one.

## What your counter rules suggest

Counter rules describe the least you take for a kind of shift, for example "at least 24 USD an hour
for bartending on Friday and Saturday nights, plus 3 USD beyond 20 km". Manage them at
`/v1/shifter/{id}/counter_rules`.

When a pending request pays less than your rules ask, the request shows you (and only you)
`suggested_counter_rate` and the `counter_rule_id` behind it.
`GET /v1/shifter/{id}/counter_rules/suggest?shift_request_id=…` gives the same suggestion. Use it to
talk to the business before you decide. Sending a counter-offer from the app is not available yet.
Counter rules also lower a broadcast''s relevance score when it pays below your floor.

## If you do not answer

A pending request expires (status 6) once its start time passes. Answer early so the business can
find someone else if you cannot make it.
',
	'working', 'accept decline request pending targeted counter rule suggest rate reason', 2, 0, 0, 1795305600000, 1795305600000
);
--> statement-breakpoint
INSERT INTO `help_articles` (`id`, `title`, `summary`, `body`, `category`, `tags`, `position`, `helpful_count`, `not_helpful_count`, `created_at`, `updated_at`) VALUES (
	'clock-in-and-out', 'Clock in and out of a shift',
	'When you can clock in and out, what to send, and what the location check and photo rules mean for you.',
	'Clocking in starts the shift. Clocking out ends it and makes it a **worked** shift that counts
toward your earnings.

## When

- **Clock in** opens 60 minutes before the scheduled start and closes at the scheduled end.
- **Clock out** is possible from 15 minutes before the scheduled end, and any time after it, but
  never sooner than 1 minute after you clocked in.
- Outside these windows the answer is `422 SHFT-CLOCK-WINDOW-ERR`, with `opens_at` and `closes_at`
  telling you when you can.

## How

`POST /v1/shift_request/{id}/clock_in`, then later `POST /v1/shift_request/{id}/clock_out`. Every field
of the body is optional:

| field | meaning |
|---|---|
| `lat`, `lon` | where you are, sent together |
| `photo_url` | the photo you uploaded for this shift and side (see below) |
| `im_here` | "I''m here": clock in even though the location check says you are too far away |

Both calls are **idempotent**. If your phone retries, or you tap twice, you get the same stored
result back and nothing is recorded twice.

## The location check (geofence)

If the business has set a position and a radius, the distance between you and the business is
computed and stored with the clock-in (`clock_in_distance_m`).

- Normally this is only recorded, and you are clocked in wherever you are.
- Where the operator runs the check in **hard mode**, a clock-in outside the radius is refused with
  `422 GEOFENCE-ERR`. If you really are there (GPS inside a large building can be off), send the
  same call again with `im_here: true`. The override is recorded.
- If you send no position, nothing is checked.

## Photos

If the business requires a clock photo, upload one first with
`POST /v1/shift_request/{id}/clock_photo?side=in` (`side=out` when leaving). Send it as multipart field
`file`, a JPEG, PNG, GIF, WebP or HEIC of at most 8 MB. The answer''s `url` goes into `photo_url` of
your clock-in or clock-out. Without one the call fails with `422 SHFT-PHOTO-REQ-ERR`. Photos are shown
only to you and the business.

## If you can''t clock in

A shift the business already marked as a no-show cannot be clocked in. If your phone is dead,
the business can punch for you on its own device (see *Geofence, clock photos and kiosk mode*).
',
	'clocking', 'clock in out punch start end location geofence photo window early late', 1, 0, 0, 1795305600000, 1795305600000
);
--> statement-breakpoint
INSERT INTO `help_articles` (`id`, `title`, `summary`, `body`, `category`, `tags`, `position`, `helpful_count`, `not_helpful_count`, `created_at`, `updated_at`) VALUES (
	'geofence-photos-and-kiosk', 'Geofence, clock photos and kiosk mode (for businesses)',
	'Set the clock-in rules for your business, run a shared kiosk device, and punch for a shifter.',
	'These settings decide how your shifters clock in. Change them with `PUT /v1/business/update_settings`.
Only the fields you send change, and `null` clears one. Settings are for the owner or an admin.

## Geofence

Send the business''s `latitude` and `longitude`, and `geofence_radius_m` (10 to 100,000 metres). When
a shifter clocks in with a position, the distance is computed with the Haversine formula and stored
on the shift (`clock_in_distance_m`, and `clock_out_distance_m` on the way out).

- **Soft mode** (the default) records the distance and blocks nothing. This suits most places.
- **Hard mode** is an operator setting (`SHIFT_CLOCK_GEOFENCE_HARD_FAIL`). An out-of-radius clock-in
  is then refused with `GEOFENCE-ERR` unless the shifter confirms "I''m here" (`im_here: true`), which
  is recorded as `clock_in_override`.
- A clock-in without a position is not checked, so older apps keep working. Clock-out never blocks.
- `geofence_radius_m: null` turns the check off.

## Clock photos

`require_clock_photo: true` makes both clock-in and clock-out need a photo that was uploaded to that
shift with `clock_photo`. A missing photo is refused with `SHFT-PHOTO-REQ-ERR`. A link that is not
a photo stored for that shift and side is refused as invalid. Photos are visible only to the shift''s
parties.

## Kiosk mode

A tablet at the door, signed in as the owner or an active teammate, can let shifters punch in person.
The kiosk calls `clock_in` or `clock_out` and sends `actor_id`, the shift''s **shifter id**. The punch
then counts as the shifter''s own: `shift_start_by_id` holds the shifter''s user id, and the override
and the shifter''s clock windows apply as if they had used their phone.

## Punching for a shifter (manager)

Without `actor_id`, a business caller punches **as the business**, for example when a shifter''s phone
has died. The business''s own user id is recorded, and the audit log notes a manager punch. A manager
may not send `im_here` (that is refused with `VALIDATION-ERR`). A manager may also end a shift early,
any time from 1 minute after the clock-in. The shift is still paid as scheduled.

## No-shows

If nobody clocks in, mark the shift as a no-show after its start with
`POST /v1/shift_request/{id}/no_show`.
',
	'clocking', 'geofence radius location clock photo require kiosk manager punch actor_id settings business', 2, 0, 0, 1795305600000, 1795305600000
);
--> statement-breakpoint
INSERT INTO `help_articles` (`id`, `title`, `summary`, `body`, `category`, `tags`, `position`, `helpful_count`, `not_helpful_count`, `created_at`, `updated_at`) VALUES (
	'getting-paid', 'Getting paid and invoices',
	'How the pay for a worked shift is computed, what businesses see in labor costs, and where payments and invoices stand.',
	'## What a shift is worth

A shift counts as **worked** once the shifter has clocked out and it was not marked a no-show. Its pay
is the **scheduled** hours, from `shift_in` to `shift_out` in the business''s time zone, times the
`hourly_rate`, rounded half-up to the cent (or to the currency''s smallest unit) once per shift. A
shift across a daylight-saving change is paid for its true length. A shift a manager ended early is
still paid as scheduled. Figures are before any platform fees.

Each shift carries its own `currency`. Totals are never mixed across currencies: amounts in another
currency are listed apart under `other_currencies`.

## Payments and invoices are being introduced

Paying through Shiftmarket is being introduced and is **not available on this service yet**. That
covers card payments, invoices, payouts to shifters and refunds. When it arrives:

- each worked shift gets an invoice, listed at `GET /v1/invoices/list` with its amount, currency and
  status (pending, paid or failed);
- an invoice counts as paid only when its status is *paid*. Starting a payment is not enough;
- when a card issuer asks for extra authentication, the business gets an email with a link to confirm
  the payment;
- a paid shift moves from accepted (`request_status` 2) to completed (5).

Until then worked shifts stay at status 2, and the figures below show what each one is worth. Settle
pay with the business as you do today.

## For businesses: labor costs and budget

`GET /v1/business/{id}/labor_costs?week=YYYY-MM-DD` (the owner or an admin; the week defaults to the
current one, starting Monday) gives:

- `this_week_total` and `last_week_total`, and `pct_change_vs_last_week` (null when last week was 0)
- `weekly_budget` and `over_under_budget`, which is this week minus the budget: positive means over
- `by_shifter`, `by_role`, and `last_8_weeks`

Set or clear the budget with `PUT /v1/business/{id}/weekly_labor_budget`
(`{"weekly_labor_budget": 2500}` or `null`).

## For shifters

Your month so far, your projection and your goal are under *Track your earnings and mileage*.
',
	'money', 'pay paid payment invoice payout money rate hours labor costs budget refund', 1, 0, 0, 1795305600000, 1795305600000
);
--> statement-breakpoint
INSERT INTO `help_articles` (`id`, `title`, `summary`, `body`, `category`, `tags`, `position`, `helpful_count`, `not_helpful_count`, `created_at`, `updated_at`) VALUES (
	'earnings-and-mileage', 'Track your earnings and mileage',
	'Your monthly gross, projection and goal, a breakdown by business, and a mileage log at the rate of the day.',
	'## Earnings

`GET /v1/shifter/{id}/earnings?year=2026&month=11` shows your earnings for a month. Only you can see
your earnings. The month follows your own time zone and defaults to the current month.

| field | meaning |
|---|---|
| `gross` | pay of the worked shifts this month (hours times rate, before fees) |
| `projected_end_of_month` | a straight-line projection, given from the 3rd day of the month |
| `typical_hourly_rate` | your mean rate over the last 90 days |
| `typical_shift_hours` | your mean shift length over the last 90 days |
| `monthly_earnings_goal`, `shifts_to_goal` | your goal, and about how many typical shifts you still need (0 once you reach it) |
| `by_business` | this year''s pay per business |
| `trend_12_months` | gross per month over the last 12 months |
| `other_currencies` | pay in other currencies, listed apart rather than converted |

Only worked shifts count: clocked out, and not a no-show. Cancelled, declined and expired shifts add
nothing.

### Set a goal

`PUT /v1/shifter/{id}/earnings_goal` with `{"monthly_earnings_goal": 3200}`, or `null` to clear it.
The goal is in your profile''s currency.

## Mileage log

Keep a record of the miles you drive for work, for your taxes or for reimbursement. Entries are not
tied to particular shifts.

- **Log a trip**: `POST /v1/shifter/{id}/mileage` with `log_date` (`YYYY-MM-DD`), `miles` (more than 0,
  at most 2,000, two decimals at most) and an optional `purpose`.
- The **rate per mile** is captured when you write the entry (`rate_per_mile_cents`). The default is
  67 cents and the operator can change it (`MILEAGE_RATE_CENTS`). A later change of rate never alters
  entries you already logged. Amounts are in USD.
- **See a year**: `GET /v1/shifter/{id}/mileage?year=2026` lists the entries, newest first, with a
  `rollup` of the year''s entries, total miles and total amount.
- **Fix or remove** an entry: `PATCH` (or `PUT`) `/v1/shifter/{id}/mileage/{entry_id}` changes the date,
  miles or purpose, and the rate stays as captured. `DELETE` removes it.

Your mileage is private to you (admins can read it for support).
',
	'money', 'earnings gross projection goal month trend mileage miles trip rate tax log', 2, 0, 0, 1795305600000, 1795305600000
);
--> statement-breakpoint
INSERT INTO `help_articles` (`id`, `title`, `summary`, `body`, `category`, `tags`, `position`, `helpful_count`, `not_helpful_count`, `created_at`, `updated_at`) VALUES (
	'crew-connections', 'Build your crew with connections',
	'Connect businesses and shifters so they can send each other shifts; accept, decline or remove a connection.',
	'A **connection** links a business and a shifter. Once it is accepted, the shifter is part of the
business''s **crew**: the business can send them targeted shifts, and they see the business''s
broadcasts.

## Ask to connect

Either side can start, with `POST /v1/request_authorization/send`:

- **A business** (owner, active teammate or admin) sends `business_id` and the `shifter_id` to invite.
- **A shifter** sends just the `business_id`. Their own profile is the other side.
- If your account has both profiles, add `as: "business"` or `as: "shifter"`.

The other side is notified. If they had already sent you a request, your send accepts it, so you are
connected right away.

## Answer a request

Only the receiving side answers:

- `POST /v1/request_authorization/{id}/accept` connects you.
- `POST /v1/request_authorization/{id}/decline` turns it down. Either side may ask again later, which
  reopens it as a new pending request.

## See your connections

`POST /v1/request_authorization/list_of_requests` answers with four lists: `incoming` (waiting for
you), `outgoing` (waiting for them), `accepted` (your crew or your businesses) and `closed` (declined
or removed, filled only when you ask with `status`). A business owner can narrow it with `business_id`.

## Remove a connection

`DELETE /v1/request_authorization/{id}`. Either side may remove it at any time, and it also withdraws a
request you sent. After removal:

- the shifter no longer sees the business''s broadcasts and cannot be sent new requests;
- shifts already sent or accepted stay as they are;
- a targeted template for that shifter is refused at generate time until you connect again.

## Tips for businesses

Your crew''s broadcast audience is exactly your accepted connections. Crew analytics
(`GET /v1/business/{business_id}/crew/analytics`) show each member''s worked shifts, hours and
reliability over 90 days.
',
	'team', 'connection connect crew request accept decline remove invite shifter business request_authorization', 1, 0, 0, 1795305600000, 1795305600000
);
--> statement-breakpoint
INSERT INTO `help_articles` (`id`, `title`, `summary`, `body`, `category`, `tags`, `position`, `helpful_count`, `not_helpful_count`, `created_at`, `updated_at`) VALUES (
	'teammates', 'Invite teammates to help run your business',
	'Give managers their own sign-in: invite by email, what an active teammate may do, suspend or reactivate.',
	'**Teammates** are people who help run a business, such as shift managers, with their own account and
their own API key. Nobody shares a password.

## Invite someone

The owner (or an admin) sends `POST /v1/business/{id}/teammates` with the person''s `email`.

- The answer is `202` with the invitation: its id, email, status and expiry. It is the same whether
  or not that email already has an account.
- The invitee is told in the app if they have an account, or by email if not. Someone without an
  account can register with that address and accept afterwards.
- An invitation **expires after 14 days**. Inviting the same email again re-sends it with a fresh
  expiry.
- `GET /v1/business/{id}/invitations` lists pending invitations, and
  `DELETE /v1/business/{id}/invitations/{invitation_id}` withdraws one.

## Accept an invitation

The invitee lists theirs with `GET /v1/user/invitations` and answers with
`POST /v1/user/invitations/{id}/accept` or `/decline`. Accepting makes them an **active teammate**
(status 1), and the owner is notified. An invitation can only be answered by the person it was sent
to.

## What an active teammate may do

- post, change and cancel shifts and broadcasts for the business, and mark no-shows
- manage shift templates and generate shifts
- send and answer connection requests for the business
- run the kiosk or punch for a shifter
- read crew analytics

Some things stay with the owner (and admins): business settings (geofence, photos, auto-fill),
labor costs and the weekly budget, inviting teammates and changing their status.

A teammate who is also a shifter in the business''s crew can claim its broadcasts like any crew
member. A teammate who is not in the crew sees the broadcasts as the business and cannot claim them.

## Suspend or reactivate

`PUT /v1/business/{id}/teammates/{user_id}` with `{"status": 0}` suspends a teammate. They keep their
account but lose all access to the business at once. `{"status": 1}` brings them back.
`GET /v1/business/{id}/teammates` lists the team.
',
	'team', 'teammate team manager invite invitation suspend reactivate staff colleague owner', 2, 0, 0, 1795305600000, 1795305600000
);
--> statement-breakpoint
INSERT INTO `help_articles` (`id`, `title`, `summary`, `body`, `category`, `tags`, `position`, `helpful_count`, `not_helpful_count`, `created_at`, `updated_at`) VALUES (
	'two-factor-sign-in', 'Two-factor sign-in and trusted browsers',
	'Protect your account with codes from an authenticator app, keep backup codes, and skip the code on browsers you trust.',
	'With **two-factor sign-in** on, your password alone is not enough: signing in also needs a 6-digit
code from an authenticator app on your phone (any app that supports TOTP, such as the one your
password manager offers).

## Turn it on

1. Sign in on the web and open **Account → Security** (`/account/security`), then start the setup.
2. Scan the QR code with your app, or type the key shown under it.
3. Enter the current code from the app and your password to confirm.
4. You get **10 backup codes**, shown once. Save them somewhere other than your phone. Each one
   works one time, if you lose the phone.

## Signing in

- **On the web**: after your password, `/login/2fa` asks for a code from the app or a backup code.
  You have ten minutes. *Cancel* signs you out.
- **Through the API**: `POST /v1/auth/login` answers `two_factor_required: true` with a pending
  `session_token`. Send it within ten minutes to `POST /v1/auth/login/two_factor` with either `code`
  or `backup_code`. Until then that token is refused everywhere else with `401 TWO-FACTOR-REQ-ERR`.
- Your **personal API key is not affected**. Automations that use it keep working.

Each code works once, and codes from one step before or after the current 30-second step are
accepted, in case your phone''s clock drifts. Wrong codes are limited to 5 per 15 minutes and 20 per
day.

## Trusted browsers

On the code step, tick **Trust this browser for 30 days** to skip the code there next time. You still
need your password. The trust renews each time you use it, and you can revoke any trusted browser on
the Security page. Turning two-factor off, or making new backup codes, revokes every trusted browser.

## Text-message codes

Where the operator offers it, you can also get codes by SMS once the app is set up and your account
has a phone number. SMS is an extra way to get a code, never the only one.

## Turn it off or renew backup codes

Both are on `/account/security` and need your password. New backup codes replace the old set.

Lost your phone *and* your backup codes? Ask support from this help center and explain what
happened.
',
	'account', '2fa two-factor mfa totp authenticator code backup trusted browser device sign-in login security sms', 1, 0, 0, 1795305600000, 1795305600000
);
--> statement-breakpoint
INSERT INTO `help_articles` (`id`, `title`, `summary`, `body`, `category`, `tags`, `position`, `helpful_count`, `not_helpful_count`, `created_at`, `updated_at`) VALUES (
	'api-keys-and-rate-limits', 'Personal API keys and rate limits',
	'Call the API with your personal key, rotate it, and stay within 600 requests per 5 minutes.',
	'Every account has one **personal API key**. It can do exactly what you can do in the app, so treat it
like a password.

## Use it

Send it on every request:

```sh
curl -s https://<your Shiftmarket address>/v1/user/details \
  -H "Authorization: Bearer smk_…"
```

Keys start with `smk_`. The full key is shown **once**, when you verify your email or regenerate it.
After that only its first 12 characters are shown (`GET /v1/user/api_key`) so you can recognise it.
Only a hash is stored, so nobody can show it to you again.

A malformed, unknown or revoked key is refused with `401 AUTH-REQ-ERR` on every route, including open
ones, so a script with a bad key never runs as if nobody were signed in.

## Rotate it

`POST /v1/user/api_key/regenerate` (or **Account → API key** on the web) revokes the old key at once
and shows the new one. Do this whenever a key may have leaked. Changing your password keeps the key.
A password **reset** by emailed code replaces it, because a reset may follow a takeover.

## Rate limits

- Your key may make **600 requests per 5 minutes**, counted per account. A regenerated key continues
  the same budget.
- Session tokens from `POST /v1/auth/login` have their own budget of the same size.
- Every answer carries `X-RateLimit-Limit`, `X-RateLimit-Remaining` and `X-RateLimit-Reset`.
- Past the limit you get `429 RATE-LIMIT-ERR` with `Retry-After` in seconds. Wait that long, then go
  on.
- Sign-up and sign-in routes are limited per address and per email on top of that.

## Good habits

- Keep the key in a secret store or an environment variable, never in code or in a repository.
- Use an `Idempotency-Key` on POSTs you might retry (see *Retry safely with Idempotency-Key*).
- Read errors by `error.code`. The body is always
  `{ "error": { "code", "message", "details"? }, "request_id" }`, and `request_id` helps support find
  your call.
- The full reference is at `/v1/docs`, and the OpenAPI document at `/v1/openapi.json` works with
  client generators. Operation names (`operationId`) stay stable.
',
	'developers', 'api key token bearer authorization rate limit 429 headers regenerate developer automation', 1, 0, 0, 1795305600000, 1795305600000
);
--> statement-breakpoint
INSERT INTO `help_articles` (`id`, `title`, `summary`, `body`, `category`, `tags`, `position`, `helpful_count`, `not_helpful_count`, `created_at`, `updated_at`) VALUES (
	'idempotency-keys', 'Retry safely with Idempotency-Key',
	'Send an Idempotency-Key on a POST so a retry after a timeout never posts, claims or charges twice.',
	'Networks fail. When a POST times out you cannot tell whether it took effect. An **Idempotency-Key**
makes a retry safe: the same request with the same key is carried out at most once.

## How to use it

Add a header with a fresh random value (a UUID is ideal) to a POST, and reuse **the same value** when
you retry that request:

```sh
curl -s -X POST https://<your Shiftmarket address>/v1/shift_request/send_request \
  -H "Authorization: Bearer smk_…" \
  -H "Idempotency-Key: 6f1d1c9e-2d2b-4a59-9a53-0b7f5a3c2f10" \
  -H "Content-Type: application/json" \
  -d ''{"shifter_id": "shf_…", "shift_date": "2026-12-05", "shift_in": "09:00", "shift_out": "17:00", "shiftrole_id": 1, "hourly_rate": 20}''
```

## What you get back

- **The first time**, the request runs normally.
- **A retry** with the same key, path, query and body gets the first answer again, with the header
  `Idempotent-Replayed: true`. Nothing is done a second time.
- **The same key with a different request** is refused with `409 IDEMPOTENCY-MISMATCH-ERR`. Use a new
  key for a new request.
- **A retry while the first is still running** gets `409 IDEMPOTENCY-IN-PROGRESS-ERR`. Wait a moment
  and retry.
- Keys are kept for **24 hours** and belong to your account alone.

Even when the first attempt answered with an error *after* its change was saved (say a `500` on the
way back), the retry does not make the change twice. It answers from what was saved.

## Good to know

- It works on POSTs from a signed-in caller. Anonymous POSTs, such as registration, ignore the header.
- Answers that contain a new secret (a new API key or session token) are never stored, so a retry of
  those runs again.
- Claims are safe to repeat even without a key: claiming a broadcast you already won returns your
  shift. Clocking in or out twice returns the first punch.
',
	'developers', 'idempotency idempotent retry duplicate timeout network replay header 409', 2, 0, 0, 1795305600000, 1795305600000
);
--> statement-breakpoint
INSERT INTO `help_articles` (`id`, `title`, `summary`, `body`, `category`, `tags`, `position`, `helpful_count`, `not_helpful_count`, `created_at`, `updated_at`) VALUES (
	'mcp-server-for-ai-agents', 'The MCP server for AI agents (coming soon)',
	'Connect an AI assistant to your account through the Model Context Protocol: scopes, tools and confirmations.',
	'Shiftmarket is adding an **agent tool server**: a Model Context Protocol (MCP) server that lets an AI
assistant you trust work with your account, for example to find and claim shifts, post a shift or
check your earnings. **It is not available on this service yet.** This article describes how it will
work, so you can plan for it. Until then, the same things can be done with your personal API key
(see *Personal API keys and rate limits*).

## Address and sign-in

- The server lives at `/v1/mcp/` on your Shiftmarket address, over the MCP HTTP transport.
- Agents connect with **OAuth 2.0 with PKCE**. You approve the connection on a consent page and
  choose its scopes: **read**, **write** and **payment**. Unticked scopes are simply not granted.
- A local stdio server for developers, `shiftmarket-mcp`, will accept personal API keys and read the
  service address from `SHIFTMARKET_BASE_URL`.

## Tools

All tool names start with `shiftmarket.`.

- **read**: `me`, `list_my_shifts`, `shift_details`, `search_shifts` (open broadcasts),
  `business_profile`, `shifter_profile`, `list_connections`, `my_earnings`, `my_spend`
- **write**: `post_shift`, `claim_shift`, `clock_in`, `clock_out`, `cancel_shift`, `update_my_profile`,
  `create_counter_offer`. These ask you to confirm by default.
- **payment**: `confirm_payment_for_shift`. It never charges by itself. It returns a one-time link,
  valid for 5 minutes, to a confirm page where you, signed in, approve the charge.

## The rules agents follow

- An agent can do only what you can. Business tools need you to own the business, and shifter tools
  need your own shifter profile.
- `claim_shift` follows the same first-claim-wins rule as the app, and `clock_in` and `clock_out` are
  safe to repeat.
- `update_my_profile` changes only permitted fields and lists any others under `ignored_fields`.
- A counter-offer on a broadcast is refused with `NOT-NEGOTIABLE`.
- Every tool call is written to an audit log (tool, arguments with secrets removed, result, time
  taken).
- Payment amounts have hard caps.

Watch this article for the day it goes live.
',
	'developers', 'mcp model context protocol ai agent assistant claude tools oauth scopes confirm automation coming', 3, 0, 0, 1795305600000, 1795305600000
);
--> statement-breakpoint
INSERT INTO `help_articles` (`id`, `title`, `summary`, `body`, `category`, `tags`, `position`, `helpful_count`, `not_helpful_count`, `created_at`, `updated_at`) VALUES (
	'help-center-and-support', 'Get answers: search, ask the help assistant, or talk to a person',
	'How the help center works: searching articles and videos, asking the help assistant, and reaching a person from support.',
	'## Search

`POST /v1/help/search` with `{"query": "clock in photo"}` finds articles and videos. Words match in
any form, so *clock*, *clocks* and *clocking* all count, and a word in a title counts more than one in
the text. Type plain words: quotes, `*` or `OR` are read as ordinary text. Browse by section with
`GET /v1/help/articles?category=…` and `GET /v1/help/videos`. Reading the help center needs no
account.

## Ask the help assistant

Signed in, send a question in your own words to `POST /v1/help/ask`:

```json
{ "question": "Why can''t I clock in yet?" }
```

The help assistant looks up the articles that match your question and answers from them. It names
the articles it used, with their paths, so you can read more. The answer comes back in a **help
conversation** (`conversation_id`). Send follow-up questions with the same `conversation_id` to keep
the context.

Where the service has no language model configured, the assistant answers with a fixed reply that
lists the best-matching articles instead.

The assistant knows the help articles, not your account. It cannot see or change your shifts. For
anything about your own data, talk to a person.

## Talk to a person

`POST /v1/help/escalate` with your `conversation_id` hands the conversation to the support team. The
conversation becomes a **support** conversation, the assistant stops answering, and a person from
support joins and replies in the same conversation, with everything you already wrote in front of
them.

## Tell us if an article helped

`POST /v1/help/articles/{id}/feedback` with `{"helpful": true}` or `{"helpful": false, "comment": "…"}`.
You have one vote per article, and voting again replaces your earlier vote. The comments help us fix
what is missing.
',
	'getting-started', 'help support search ask assistant question escalate person human contact feedback', 2, 0, 0, 1795305600000, 1795305600000
);
--> statement-breakpoint
INSERT INTO `help_videos` (`id`, `title`, `description`, `url`, `duration_seconds`, `transcript`, `category`, `position`, `created_at`, `updated_at`) VALUES (
	'post-your-first-shift', 'Post your first shift',
	'A business owner connects with a shifter, posts a targeted shift, then broadcasts a busy Friday to the whole crew.',
	'/help/videos/post-your-first-shift', 192,
	'Hi, in this video we post our first shifts as a business. First, a shifter has to be in your crew, so we send a connection request from the business to Jordan. Jordan accepts it, and now Jordan is part of our crew. Next we post a targeted shift: Saturday, nine in the morning to five in the afternoon, barista, twenty dollars an hour, with a note about where to park. Times are always in the business''s time zone. Jordan gets a notification and accepts, and the shift is now accepted on both calendars. Friday evenings are busy, so for those we post a broadcast instead: is broadcast set to one and no shifter chosen. Every crew member who is taking requests hears about it, and the first one to claim it gets the shift. Everyone else sees that it has been claimed. Finally, if you post the same shifts every week, save them as a template and generate the next four weeks in one go. Repeating generate is safe, because dates that already have a shift are skipped.',
	'posting', 1, 1795305600000, 1795305600000
);
--> statement-breakpoint
INSERT INTO `help_videos` (`id`, `title`, `description`, `url`, `duration_seconds`, `transcript`, `category`, `position`, `created_at`, `updated_at`) VALUES (
	'claim-and-clock-in', 'Claim an open shift and clock in',
	'A shifter ranks the open broadcasts, claims one, uploads a clock photo and clocks in at the door.',
	'/help/videos/claim-and-clock-in', 245,
	'In this video, Jordan, a shifter, picks up an open shift. The list of broadcast requests shows the open shifts of the businesses Jordan works for. With sort by relevance on, the best fits come first: the roles Jordan knows, pay at or above Jordan''s usual rate, places nearby, and no clash with shifts already accepted. Jordan claims the Friday bartending shift. The first claim wins, so if someone else had been faster, Jordan would see claim lost and nothing would be booked. On Friday, clock in opens an hour before the start. This café asks for a clock photo, so Jordan takes one and uploads it, then clocks in with the photo link and the phone''s location. The café has a geofence, so the distance is recorded. If the phone thinks Jordan is too far away and the check is strict, Jordan can confirm I''m here. At the end of the night Jordan clocks out. That can be done from fifteen minutes before the scheduled end. The shift is now worked and shows up in Jordan''s earnings for the month.',
	'working', 1, 1795305600000, 1795305600000
);
--> statement-breakpoint
INSERT INTO `help_videos` (`id`, `title`, `description`, `url`, `duration_seconds`, `transcript`, `category`, `position`, `created_at`, `updated_at`) VALUES (
	'set-up-two-factor', 'Set up two-factor sign-in',
	'Turn on two-factor with an authenticator app, keep your backup codes, and trust your own browser.',
	'/help/videos/set-up-two-factor', 158,
	'Let''s protect your account with two-factor sign-in. Open account, then security, and start the setup. Scan the QR code with your authenticator app, or type in the key shown under it. Enter the six digit code from the app together with your password to confirm. You now get ten backup codes. They are shown only once, so save them somewhere safe that is not your phone. Each backup code works one time. Next time you sign in, after your password you are asked for a code. Tick trust this browser for thirty days on your own computer to skip the code there. You can revoke trusted browsers at any time on the security page. Your personal API key keeps working for your automations, with or without two-factor.',
	'account', 1, 1795305600000, 1795305600000
);
--> statement-breakpoint
INSERT INTO `help_videos` (`id`, `title`, `description`, `url`, `duration_seconds`, `transcript`, `category`, `position`, `created_at`, `updated_at`) VALUES (
	'first-api-call', 'Your first API call with a personal key',
	'Find your key, make a first call with curl, read the rate-limit headers, and retry a POST safely.',
	'/help/videos/first-api-call', 221,
	'This video is for developers automating their Shiftmarket account. Your personal API key is shown once, when you verify your email or regenerate the key. Afterwards only its prefix is shown. Send it as a bearer token in the authorization header. Our first call reads the user details. Look at the response headers: X RateLimit Limit, Remaining and Reset. You may make six hundred requests every five minutes, and if you go over you get a four twenty nine with Retry After. Next we post a shift request. Because a network can fail halfway, we add an Idempotency Key header with a random UUID. We send the exact same request again, and the answer is replayed with Idempotent Replayed true, so no second shift was created. Errors always have the same shape, an error code, a message and a request id. The interactive reference at slash v1 slash docs lists every operation, and the OpenAPI document works with client generators.',
	'developers', 1, 1795305600000, 1795305600000
);
