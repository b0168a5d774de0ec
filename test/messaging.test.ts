import { describe, expect, it } from 'vitest';
import { appendMessage, escalateSupportThread, joinSupportThread, listMessages, openSupportThread } from '../src/services/messaging';
import { contextAt } from './helpers/clock';
import { makeUser } from './helpers/factory';

const ctxOf = (u: { userId: string; keyId: string }, opts: { isAdmin?: boolean } = {}) => contextAt(Date.now(), u, opts);

describe('support threads (the help center API)', () => {
  it('opens a support_ai thread, appends in order, escalates and lets an admin join and answer', async () => {
    const person = await makeUser({ shifter: true, name: 'Asking Person' });
    const admin = await makeUser({ admin: true, name: 'Support Admin' });
    const ctx = ctxOf(person);
    const thread = await openSupportThread(ctx, { kind: 'support_ai', ownerUserId: person.userId, subject: 'How do I clock in?' });
    expect(thread).toMatchObject({ kind: 'support_ai', subject: 'How do I clock in?', owner_user_id: person.userId });
    expect(thread.participants.find((p) => p.kind === 'assistant')).toMatchObject({
      is_automated: true,
      automation_kind: 'help_assistant',
    });

    const q = await appendMessage(ctx, thread.id, { senderKind: 'user', senderId: person.userId, body: 'How do I clock in?' });
    const a = await appendMessage(ctx, thread.id, {
      senderKind: 'assistant',
      senderId: 'help_assistant',
      body: 'Open the shift and tap Clock in.',
    });
    expect([q.seq, a.seq]).toEqual([1, 2]);
    expect(a.automated).toBe(true);
    const page = await listMessages(ctx, thread.id, null);
    expect(page.data.map((m) => m.body)).toEqual(['How do I clock in?', 'Open the shift and tap Clock in.']);

    const escalated = await escalateSupportThread(ctx, thread.id);
    expect(escalated.kind).toBe('support');
    const adminCtx = ctxOf(admin, { isAdmin: true });
    const joined = await joinSupportThread(adminCtx, thread.id);
    expect(joined.as).toEqual({ kind: 'user', id: admin.userId });
    const answer = await appendMessage(adminCtx, thread.id, { senderKind: 'user', senderId: admin.userId, body: 'Hi, I can help.' });
    expect(answer.seq).toBe(3);
  });
});
