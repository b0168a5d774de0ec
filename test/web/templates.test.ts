import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { shiftRequests, shiftTemplates } from '../../src/db/schema';
import { addDays, todayIn, weekdayOf } from '../../src/lib/shift-time';
import { BASE, call, expectError } from '../helpers/api';
import { randomIp } from '../helpers/auth';
import { addTeammate, db, makeUser } from '../helpers/factory';
import { makeCrewMember, NY } from '../helpers/shifts';
import type { WebClient } from '../helpers/web';
import { signedIn } from '../helpers/signed-in';

/** Every weekday but today's and tomorrow's (in the business's zone): no occurrence can start in the past or race the clock. */
function laterWeekdays(): string[] {
  const today = todayIn(NY);
  const skip = new Set([weekdayOf(today), weekdayOf(addDays(today, 1))]);
  return [1, 2, 3, 4, 5, 6, 7].filter((d) => !skip.has(d)).map(String);
}

/** The form as a browser sends it: repeated `days` fields, one per ticked weekday. */
async function postForm(b: WebClient, path: string, fields: Record<string, string>, days: string[]) {
  const body = new URLSearchParams({ _csrf: b.cookies.get('sm_csrf') ?? b.token, _idem: crypto.randomUUID(), ...fields });
  for (const d of days) body.append('days', d);
  const res = await b.worker(
    new Request(new URL(path, BASE), {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: b.cookieHeader(), 'CF-Connecting-IP': randomIp() },
      body,
      redirect: 'manual',
    }),
  );
  return { status: res.status, location: res.headers.get('Location'), html: await res.text() };
}

const templatesOf = (businessId: string) => db().select().from(shiftTemplates).where(eq(shiftTemplates.business_id, businessId));
const shiftsOf = (businessId: string, templateId: string) =>
  db()
    .select()
    .from(shiftRequests)
    .where(and(eq(shiftRequests.business_id, businessId), eq(shiftRequests.template_id, templateId)));

const FORM = {
  label: 'Evening bar',
  shift_in: '18:00',
  shift_out: '23:00',
  shiftrole_id: '1',
  hourly_rate: '21.25',
  mode: 'broadcast',
  is_active: '1',
  note: 'Black shirt',
};

describe('/dashboard/templates', () => {
  it('creates a template, previews two weeks without writing, generates, and shows what was created and skipped', async () => {
    const owner = await makeUser({ business: true });
    const b = await signedIn(owner);
    const empty = await b.get('/dashboard/templates');
    expect(empty.status).toBe(200);
    expect(empty.html).toContain('No templates yet.');

    const days = laterWeekdays();
    const created = await postForm(b, '/dashboard/templates', FORM, days);
    expect(created.status).toBe(303);
    expect(created.location).toContain('notice=created');
    const [t] = await templatesOf(owner.businessId!);
    expect(t).toMatchObject({
      label: 'Evening bar',
      days_of_week: days.join(','),
      hourly_rate_minor: 2125,
      is_broadcast: true,
      note: 'Black shirt',
    });
    const list = await b.get('/dashboard/templates');
    expect(list.html).toContain('Evening bar');
    expect(list.html).toContain('18:00–23:00');

    // The preview: 2 weeks × 5 weekdays, nothing written.
    const preview = await b.get(`/dashboard/templates/${t!.id}/generate?weeks=2`);
    expect(preview.status).toBe(200);
    expect(preview.html).toContain('Will be created (10)');
    expect(preview.html).toContain('Skipped, already there (0)');
    expect(preview.html).toContain('Create 10 shifts');
    expect(await shiftsOf(owner.businessId!, t!.id)).toHaveLength(0);

    // The API answers the same preview.
    const api = await call('GET', `/v1/shift_templates/${t!.id}/generate/preview`, { key: owner.key, query: { weeks: 2 } });
    expect(api.status).toBe(200);
    expect(api.body.would_create).toHaveLength(10);
    expect(api.body).toMatchObject({ weeks: 2, skipped: [], timezone: NY, template_id: t!.id });

    // Generate one week, then preview two: the first week is what is skipped.
    const one = await b.post(`/dashboard/templates/${t!.id}/generate`, { _idem: crypto.randomUUID(), weeks: '1' });
    expect(one.status).toBe(303);
    const firstWeek = (await shiftsOf(owner.businessId!, t!.id)).map((r) => r.shift_date).sort();
    expect(firstWeek).toHaveLength(5);
    const again = await b.get(`/dashboard/templates/${t!.id}/generate?weeks=2`);
    expect(again.html).toContain('Will be created (5)');
    expect(again.html).toContain('Skipped, already there (5)');
    for (const d of firstWeek) expect(again.html).toContain(`datetime="${d}"`);
    // Calendar weeks from next Monday (the one chosen by default), each skip with its reason.
    expect(firstWeek[0]).toBe(api.body.week_start);
    expect(again.html).toMatch(new RegExp(`<option value="${api.body.week_start}" selected="">Next week \\(from `));
    expect(again.html.match(/already made from this template/g)).toHaveLength(5);
    expect(again.html).toContain(`name="week_of" value="${api.body.week_start}"`);

    // Confirmed: the second week is created and the result page says what was skipped.
    const form = { _idem: crypto.randomUUID(), weeks: '2' };
    const done = await b.post(`/dashboard/templates/${t!.id}/generate`, form);
    expect(done.status).toBe(303);
    expect(done.location).toContain(`/dashboard/templates/${t!.id}/generated`);
    const url = new URL(done.location!, BASE);
    expect(url.searchParams.get('skipped')!.split(',').sort()).toEqual(firstWeek);
    expect(url.searchParams.get('created')!.split(',')).toHaveLength(5);
    const result = await b.get(done.location!);
    expect(result.html).toContain('5 shifts were created');
    expect(result.html).toContain('Created (5)');
    expect(result.html).toContain('Skipped, already there (5)');
    // The same form sent twice acts once.
    const twice = await b.post(`/dashboard/templates/${t!.id}/generate`, form);
    expect(twice.location).toBe(done.location);
    expect(await shiftsOf(owner.businessId!, t!.id)).toHaveLength(10);
  });

  it('keeps what was typed and says each refusal beside its field', async () => {
    const owner = await makeUser({ business: true });
    const stranger = await makeUser({ shifter: true });
    const b = await signedIn(owner);
    await b.get('/dashboard/templates');

    const bad = await postForm(b, '/dashboard/templates', { ...FORM, label: 'Kept label', hourly_rate: 'lots' }, []);
    expect(bad.status).toBe(400);
    expect(bad.html).toMatch(/id="field-days_of_week-error">Choose at least one day of the week\./);
    expect(bad.html).toMatch(/id="field-hourly_rate-error">Enter the hourly rate as a number/);
    expect(bad.html).toContain('value="Kept label"');
    expect(bad.html).toContain('value="lots"');

    const noShifter = await postForm(b, '/dashboard/templates', { ...FORM, mode: 'targeted' }, ['1']);
    expect(noShifter.status).toBe(400);
    expect(noShifter.html).toMatch(/id="field-default_shifter_id-error">Choose the shifter to ask/);

    // A shifter outside the crew: the service's refusal, beside the shifter field.
    const notCrew = await postForm(b, '/dashboard/templates', { ...FORM, mode: 'targeted', default_shifter_id: stranger.shifterId! }, [
      '1',
    ]);
    expect(notCrew.status).toBe(422);
    expect(notCrew.html).toMatch(/id="field-default_shifter_id-error">The default shifter is not connected/);
    expect(notCrew.html).toMatch(/id="tpl-mode-targeted"[^>]*checked/);
    expect(await templatesOf(owner.businessId!)).toHaveLength(0);
  });

  it('edits, pauses (generating is then refused with its reason) and deletes after a confirmation', async () => {
    const owner = await makeUser({ business: true });
    const crew = await makeCrewMember(owner.businessId!);
    const b = await signedIn(owner);
    await b.get('/dashboard/templates');
    await postForm(b, '/dashboard/templates', FORM, ['2', '4']);
    const [t] = await templatesOf(owner.businessId!);

    const edit = await b.get(`/dashboard/templates/${t!.id}/edit`);
    expect(edit.html).toContain('value="Evening bar"');
    const saved = await postForm(
      b,
      `/dashboard/templates/${t!.id}/edit`,
      { ...FORM, label: 'Late bar', mode: 'targeted', default_shifter_id: crew.shifterId!, is_active: '' },
      ['6'],
    );
    expect(saved.status).toBe(303);
    const [changed] = await templatesOf(owner.businessId!);
    expect(changed).toMatchObject({
      label: 'Late bar',
      days_of_week: '6',
      is_broadcast: false,
      default_shifter_id: crew.shifterId,
      is_active: false,
    });

    const refused = await b.get(`/dashboard/templates/${t!.id}/generate?weeks=3`);
    expect(refused.status).toBe(422);
    expect(refused.html).toContain('The template is inactive');
    expect(refused.html).not.toContain('Create ');
    await b.post(`/dashboard/templates/${t!.id}/active`, { _idem: crypto.randomUUID(), is_active: '1' });
    expect((await templatesOf(owner.businessId!))[0]!.is_active).toBe(true);

    const ask = await b.get(`/dashboard/templates/${t!.id}/delete`);
    expect(ask.html).toContain('Delete “Late bar”');
    expect(await templatesOf(owner.businessId!)).toHaveLength(1);
    const gone = await b.post(`/dashboard/templates/${t!.id}/delete`, { _idem: crypto.randomUUID() });
    expect(gone.location).toContain('notice=deleted');
    expect(await templatesOf(owner.businessId!)).toHaveLength(0);
  });

  it('lets an active teammate work the templates; another business’s template is not found, through the page or the API', async () => {
    const owner = await makeUser({ business: true });
    const mate = await makeUser({});
    const other = await makeUser({ business: true });
    await addTeammate(owner.businessId!, mate.userId);
    const b = await signedIn(owner);
    await b.get('/dashboard/templates');
    await postForm(b, '/dashboard/templates', FORM, laterWeekdays());
    const [t] = await templatesOf(owner.businessId!);

    const m = await signedIn(mate);
    const preview = await m.get(`/dashboard/templates/${t!.id}/generate?weeks=1&business_id=${owner.businessId}`);
    expect(preview.status).toBe(200);
    expect(preview.html).toContain('Will be created (');

    const o = await signedIn(other);
    for (const path of ['generate?weeks=1&', 'edit?', 'delete?']) {
      const page = await o.get(`/dashboard/templates/${t!.id}/${path}business_id=${owner.businessId}`);
      expect(page.status, path).toBe(404);
    }
    // A form naming a business the poster does not act for is refused before anything is looked up
    // (dashboard refuseOtherBusiness); without it, the template is not found for their own business.
    const forged = await o.post(`/dashboard/templates/${t!.id}/generate?business_id=${owner.businessId}`, {
      _idem: crypto.randomUUID(),
      weeks: '2',
    });
    expect(forged.status).toBe(403);
    const unnamed = await o.post(`/dashboard/templates/${t!.id}/generate`, { _idem: crypto.randomUUID(), weeks: '2' });
    expect(unnamed.status).toBe(404);
    expectError(await call('GET', `/v1/shift_templates/${t!.id}/generate/preview`, { key: other.key }), 404, 'TEMPLATE-NOT-FND-ERR');
    expect(await shiftsOf(owner.businessId!, t!.id)).toHaveLength(0);
  });
});
