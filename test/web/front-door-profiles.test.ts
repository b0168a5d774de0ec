import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { businesses, requestAuthorizations, reviews, shifters } from '../../src/db/schema';
import { newId } from '../../src/lib/ids';
import { BASE } from '../helpers/api';
import { randomIp } from '../helpers/auth';
import { db, makeUser, type TestUser } from '../helpers/factory';
import { dateAhead, insertShift } from '../helpers/shifts';
import { signedIn } from '../helpers/signed-in';
import { WebClient } from '../helpers/web';

const browser = () => new WebClient(BASE, { 'CF-Connecting-IP': randomIp() });

const slugOf = async (table: typeof shifters | typeof businesses, id: string) =>
  (await db().select({ slug: table.slug }).from(table).where(eq(table.id, id)))[0]!.slug;

/** A review of `on` by `by`, written by `author`; `upheld` is removed by an admin's ruling. */
async function review(
  author: TestUser,
  by: ['shifter' | 'business', string],
  on: ['shifter' | 'business', string],
  rating: number,
  text: string,
  upheld = false,
) {
  const now = Date.now();
  await db()
    .insert(reviews)
    .values({
      id: newId('review'),
      reviewer_user_id: author.userId,
      review_by: by[0],
      review_by_id: by[1],
      review_on: on[0],
      review_on_id: on[1],
      rating,
      review_text: text,
      dispute_status: upheld ? 'upheld' : null,
      disputed_at: upheld ? now : null,
      created_at: now,
      updated_at: now,
    });
}

describe('public profiles', () => {
  it('shows a shifter to a visitor: details, the Paused badge, ratings and reviews without the upheld dispute; sign in to connect', async () => {
    const sh = await makeUser({ shifter: { headline: 'Line cook, 8 years', accept_shift_req: false }, name: 'Ada Public' });
    const biz = await makeUser({ business: true });
    await review(biz, ['business', biz.businessId!], ['shifter', sh.shifterId!], 5, 'Fast and tidy.');
    await review(biz, ['business', biz.businessId!], ['shifter', sh.shifterId!], 4, 'On time.');
    await review(biz, ['business', biz.businessId!], ['shifter', sh.shifterId!], 1, 'An unfair review.', true);
    const slug = await slugOf(shifters, sh.shifterId!);

    const page = await browser().get(`/s/${slug}`);
    expect(page.status).toBe(200);
    expect(page.html).toContain('<h1>Ada Public</h1>');
    expect(page.html).toContain('Line cook, 8 years');
    expect(page.html).toContain('<span class="badge badge-warn">Paused</span>');
    expect(page.html).toContain('<strong>4.50</strong> out of 5, from 2 reviews');
    expect(page.html).toContain('Fast and tidy.');
    expect(page.html).not.toContain('An unfair review.');
    expect(page.html).toContain(`href="/login?next=${encodeURIComponent(`/s/${slug}`)}"`);
    expect(page.html).not.toContain('class="connect-form"');

    await db().update(shifters).set({ accept_shift_req: true }).where(eq(shifters.id, sh.shifterId!));
    expect((await browser().get(`/s/${slug}`)).html).not.toContain('>Paused<');
  });

  it('shows a business with its open broadcasts (public fields) and ratings; an unknown slug is the 404 page', async () => {
    const biz = await makeUser({ business: true, name: 'Dock Kitchen' });
    const sh = await makeUser({ shifter: true });
    await insertShift({
      businessId: biz.businessId!,
      broadcast: true,
      status: 1,
      date: dateAhead(3),
      in: '18:00',
      out: '23:00',
      rateMinor: 2450,
    });
    // A targeted one is not public.
    await insertShift({ businessId: biz.businessId!, shifterId: sh.shifterId!, status: 1, date: dateAhead(4), in: '07:00', out: '11:00' });
    await review(sh, ['shifter', sh.shifterId!], ['business', biz.businessId!], 3, 'Busy but fair.');
    const slug = await slugOf(businesses, biz.businessId!);

    const page = await browser().get(`/b/${slug}`);
    expect(page.status).toBe(200);
    expect(page.html).toContain('<h1>Dock Kitchen Co</h1>');
    expect(page.html).toContain('18:00–23:00');
    expect(page.html).toContain('$24.50/h');
    expect(page.html).not.toContain('07:00–11:00');
    expect(page.html).toContain('<strong>3.00</strong> out of 5, from 1 review');
    expect(page.html).toContain('Busy but fair.');

    for (const path of ['/b/no-such-business', '/s/no-such-shifter']) {
      const missing = await browser().get(path);
      expect(missing.status, path).toBe(404);
      expect(missing.html).toContain('Page not found');
    }
  });

  it('lets a business ask a shifter to connect, and the shifter accept by asking back; in the app shell', async () => {
    const biz = await makeUser({ business: true });
    const sh = await makeUser({ shifter: true });
    const shifterSlug = await slugOf(shifters, sh.shifterId!);
    const businessSlug = await slugOf(businesses, biz.businessId!);

    const owner = await signedIn(biz);
    const page = await owner.get(`/s/${shifterSlug}`);
    // Signed in, the profile is drawn in the app shell (its header leads to the inbox).
    expect(page.html).toContain('class="header-links"');
    expect(page.html).toMatch(/Ask to connect as Test User \d+ Co/);
    const asked = await owner.post(`/s/${shifterSlug}/connect`, { business_id: biz.businessId!, _idem: crypto.randomUUID() });
    expect(asked.status).toBe(303);
    expect(asked.location).toBe(`/s/${shifterSlug}?notice=asked`);
    expect((await owner.get(asked.location!)).html).toContain('Your connection request was sent.');
    const again = await owner.post(`/s/${shifterSlug}/connect`, { business_id: biz.businessId!, _idem: crypto.randomUUID() });
    expect(again.status).toBe(409);
    expect(again.html).toContain('already pending');

    // The owner's own business page offers them no button; the shifter's does.
    expect((await owner.get(`/b/${businessSlug}`)).html).not.toContain('class="connect-form"');
    const shifter = await signedIn(sh);
    expect((await shifter.get(`/s/${shifterSlug}`)).html).not.toContain('class="connect-form"');
    const mutual = await shifter.post(`/b/${businessSlug}/connect`, { _idem: crypto.randomUUID() });
    expect(mutual.location).toBe(`/b/${businessSlug}?notice=connected`);
    const [row] = await db()
      .select()
      .from(requestAuthorizations)
      .where(and(eq(requestAuthorizations.business_id, biz.businessId!), eq(requestAuthorizations.shifter_id, sh.shifterId!)));
    expect(row?.status).toBe('accepted');
  });

  it('sends a visitor who posts "ask to connect" to sign in', async () => {
    const sh = await makeUser({ shifter: true });
    const slug = await slugOf(shifters, sh.shifterId!);
    const b = browser();
    await b.get(`/s/${slug}`);
    const res = await b.post(`/s/${slug}/connect`, { business_id: 'biz_x' });
    expect(res.status).toBe(303);
    expect(res.location).toMatch(/^\/login\?next=/);
  });
});
