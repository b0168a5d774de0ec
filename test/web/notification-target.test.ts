import { describe, expect, it } from 'vitest';
import { notificationTarget } from '../../src/web/features/inbox/notification-target.model';

describe('where a notification leads (the notifications page and a push click)', () => {
  it('opens the thread, or the app page its url names by path only', () => {
    expect(notificationTarget({ conversation_id: 'thr_1' })).toEqual({ path: '/inbox/thr_1', label: 'Open the conversation' });
    expect(notificationTarget({ url: 'http://localhost:8787/dashboard/shifter/connections' })).toEqual({
      path: '/dashboard/shifter/connections',
      label: 'See your invitations and businesses',
    });
    expect(notificationTarget({ url: 'https://app.example.com/dashboard/crew?business_id=biz_1' })?.path).toBe(
      '/dashboard/crew?business_id=biz_1',
    );
    expect(notificationTarget({ url: 'https://app.example.com/finance/web/authenticate/in_1' })?.label).toBe('Confirm the payment');
  });

  it('never leads off the app: another origin keeps only a known path, anything else is no link', () => {
    expect(notificationTarget({ url: 'https://evil.example/dashboard/crew' })?.path).toBe('/dashboard/crew');
    expect(notificationTarget({ url: 'https://evil.example/phish' })).toBeNull();
    expect(notificationTarget({ url: 'javascript:alert(1)' })).toBeNull();
    expect(notificationTarget({ url: '//evil.example/x' })).toBeNull();
    expect(notificationTarget({ conversation_id: '../admin' })).toBeNull();
    expect(notificationTarget(null)).toBeNull();
  });
});
