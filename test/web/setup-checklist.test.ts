import { describe, expect, it } from 'vitest';
import { setupChecklist } from '../../src/services/businesses';
import { saveCard } from '../helpers/charges';
import { contextAt } from '../helpers/clock';
import { addTeammate, connect, makeUser } from '../helpers/factory';
import { postShift, setBusiness } from '../helpers/shifts';
import { signedIn } from '../helpers/signed-in';

/** The checklist card of Today, or '' when the page has none. */
const checklistOf = (html: string) => {
  const at = html.indexOf('<h2>Get set up</h2>');
  return at < 0 ? '' : html.slice(at, html.indexOf('</ol>', at));
};

describe('the first-run checklist on Today', () => {
  it('walks a new owner through address, location, crew, first shift and card, and goes away when all are done', async () => {
    const owner = await makeUser({ business: true });
    const id = owner.businessId!;
    await setBusiness(id, { address: null, latitude: null, longitude: null });
    const b = await signedIn(owner);
    const first = checklistOf((await b.get('/dashboard')).html);
    expect(first).toContain('0 of 5 done');
    for (const [label, href] of [
      ['Add the venue’s address', '/dashboard/settings'],
      ['Set where clock-ins count as on site', '/dashboard/settings'],
      ['Invite your crew', '/dashboard/crew'],
      ['Post your first shift', '/dashboard/shifts/new'],
      ['Add a card to pay for shifts', '/dashboard/money/cards/new'],
    ]) {
      expect(first).toMatch(new RegExp(`<a href="${href}[^"]*">${label}</a>`));
    }

    await setBusiness(id, { address: '1 Main St', latitude: 40.7, longitude: -74 });
    const crew = await makeUser({ shifter: true });
    await connect(id, crew.shifterId!);
    const two = checklistOf((await b.get('/dashboard')).html);
    expect(two).toContain('3 of 5 done');
    expect(two).toContain('Done: </span>You have a crew');
    expect(two).not.toContain('>Invite your crew</a>');

    await postShift(owner.key, { business_id: id, is_broadcast: 1 });
    await saveCard(owner, id);
    expect(await setupChecklist(contextAt(Date.now(), owner), id)).toMatchObject({ complete: true });
    expect(checklistOf((await b.get('/dashboard')).html)).toBe('');
  });

  it('a teammate sees the steps without the card, and another business’s checklist is not theirs to read', async () => {
    const owner = await makeUser({ business: true });
    const mate = await makeUser({});
    await addTeammate(owner.businessId!, mate.userId);
    const steps = await setupChecklist(contextAt(Date.now(), mate), owner.businessId!);
    expect(steps.steps.map((s) => s.step)).toEqual(['address', 'location', 'crew', 'first_shift']);
    const stranger = await makeUser({ business: true });
    await expect(setupChecklist(contextAt(Date.now(), stranger), owner.businessId!)).rejects.toMatchObject({
      code: 'BUSINESS-NOT-FND-ERR',
    });
  });
});
