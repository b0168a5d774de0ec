import { describe, expect, it } from 'vitest';
import { BASE } from '../helpers/api';
import { randomIp } from '../helpers/auth';
import { makeUser, TEST_PASSWORD } from '../helpers/factory';
import { dateAhead } from '../helpers/shifts';
import { WebClient } from '../helpers/web';

async function ownerBrowser() {
  const owner = await makeUser({ business: true });
  const b = new WebClient(BASE, { 'CF-Connecting-IP': randomIp() });
  expect((await b.signIn(owner.email, TEST_PASSWORD)).status).toBe(303);
  return { owner, b };
}

describe('/dashboard/assistant', () => {
  it('sends a message and shows the exchange (the fixed reply without a model), keeping a refused draft', async () => {
    const { owner, b } = await ownerBrowser();
    const empty = await b.get('/dashboard/assistant');
    expect(empty.status).toBe(200);
    expect(empty.html).toContain('No messages yet.');
    const sent = await b.post(`/dashboard/assistant?business_id=${owner.businessId}`, {
      _idem: crypto.randomUUID(),
      message: 'Who works Friday?',
    });
    expect(sent.status).toBe(303);
    const page = await b.get(sent.location!);
    expect(page.html).toContain('Who works Friday?');
    expect(page.html).toMatch(/<p class="chat-who">Assistant<\/p>/);

    const long = 'x'.repeat(2001);
    const refused = await b.post('/dashboard/assistant', { _idem: crypto.randomUUID(), message: long });
    expect(refused.status).toBe(400);
    expect(refused.html).toContain(long);
    expect(refused.html).toContain('id="field-message-error"');
  });

  it('refuses an invitation the assistant did not propose', async () => {
    const { b } = await ownerBrowser();
    const page = await b.get('/dashboard/assistant/invite?shifter_id=shf_made_up');
    expect(page.status).toBe(404);
    expect(page.html).toContain('no longer among the assistant’s proposals');
  });

  it("follows the assistant's open_shift_form link to the prefilled form", async () => {
    const { owner, b } = await ownerBrowser();
    const date = dateAhead(2);
    const res = await b.get(`/dashboard?openShift=1&date=${date}&in=09:00&out=17:00&business_id=${owner.businessId}`);
    expect(res.status).toBe(303);
    expect(res.location).toBe(`/dashboard/shifts/new?date=${date}&in=09%3A00&out=17%3A00&business_id=${owner.businessId}`);
    const form = await b.get(res.location!);
    expect(form.html).toContain(`value="${date}"`);
  });
});
