/**
 * Where a notification leads, for the notifications page and a push's click alike: the thread it is
 * about (`data.conversation_id`), else the page of the app it names (`data.url`, such as a crew
 * invitation's page or a charge's confirmation page), by its path only, so a link never leaves the
 * app's own origin. Null when it names neither.
 */
const SAFE_ID = /^[A-Za-z0-9_-]{1,64}$/;
/** The app's pages a notification may lead to, and the words of the link. */
const PLACES: ReadonlyArray<[RegExp, string]> = [
  [/^\/dashboard\/shifter\/connections(?:[/?#]|$)/, 'See your invitations and businesses'],
  [/^\/dashboard\/crew(?:[/?#]|$)/, 'Open the crew'],
  [/^\/finance\/web\//, 'Confirm the payment'],
  [/^\/(?:dashboard|inbox|notifications|reviews|help|account)(?:[/?#]|$)/, 'Open it'],
];

export function notificationTarget(data: Record<string, unknown> | null | undefined): { path: string; label: string } | null {
  const conversation = data?.conversation_id;
  if (typeof conversation === 'string' && SAFE_ID.test(conversation))
    return { path: `/inbox/${conversation}`, label: 'Open the conversation' };
  const url = data?.url;
  if (typeof url !== 'string' || url.length > 2048) return null;
  let path: string;
  try {
    const u = new URL(url, 'https://app.invalid');
    path = `${u.pathname}${u.search}`;
  } catch {
    return null;
  }
  const place = PLACES.find(([re]) => re.test(path));
  return place ? { path, label: place[1] } : null;
}
