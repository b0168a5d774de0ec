import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { shifters } from '../../src/db/schema';
import { BASE } from '../helpers/api';
import { randomIp } from '../helpers/auth';
import { db, makeUser, TEST_PASSWORD } from '../helpers/factory';
import { WebClient } from '../helpers/web';

const idem = () => ({ _idem: crypto.randomUUID() });
const row = async (id: string) => (await db().select().from(shifters).where(eq(shifters.id, id)))[0]!;

describe('/dashboard/shifter/profile', () => {
  it('edits the public details (a refused field keeps what was typed), pauses requests and shows Paused in the preview', async () => {
    const sh = await makeUser({ shifter: true });
    const b = new WebClient(BASE, { 'CF-Connecting-IP': randomIp() });
    await b.signIn(sh.email, TEST_PASSWORD);
    const page = await b.get('/dashboard/shifter/profile');
    expect(page.status).toBe(200);
    const slug = (await row(sh.shifterId!)).slug;
    expect(page.html).toContain(`href="/s/${slug}"`);
    expect(page.html).toContain('Pause requests');

    const long = 'x'.repeat(141);
    const refused = await b.post('/dashboard/shifter/profile', {
      display_name: 'Sam Lee',
      headline: long,
      bio: 'Kept as typed',
      ...idem(),
    });
    expect(refused.status).toBe(400);
    expect(refused.html).toContain('id="field-headline-error"');
    expect(refused.html).toContain('Kept as typed');

    const saved = await b.post('/dashboard/shifter/profile', { display_name: 'Sam Lee', headline: 'Line cook', bio: '', ...idem() });
    expect(saved.location).toBe('/dashboard/shifter/profile?notice=saved');
    expect(await row(sh.shifterId!)).toMatchObject({ display_name: 'Sam Lee', headline: 'Line cook', bio: null });

    await b.get('/dashboard/shifter/profile');
    const paused = await b.post('/dashboard/shifter/profile/requests', { accept_shift_req: '0', ...idem() });
    expect(paused.location).toBe('/dashboard/shifter/profile?notice=paused');
    expect((await row(sh.shifterId!)).accept_shift_req).toBe(false);
    const after = await b.get('/dashboard/shifter/profile?notice=paused');
    expect(after.html).toContain('<span class="badge badge-warn">Paused</span>');
    expect(after.html).toContain('Take requests again');
  });
});
