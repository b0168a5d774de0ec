/**
 * The help assistant's fixed sentences that speak to programs (the API's documented fallback reply and
 * escalation notice: docs/decisions/help-center.md), in the web app's words: there a button and a
 * form do what those operations do. The stored message, and what the API shows, stay as they are;
 * the help center's pages and the inbox (its page and its live view) show these exact sentences
 * this way.
 */
const WEB_WORDING: ReadonlyArray<readonly [string, string]> = [
  [
    'ask for a person: POST /v1/help/escalate with this conversation_id, and someone from the support team will reply here.',
    'ask for a person with the “Ask for a person” button of this conversation in the help center, and someone from the support team will reply here.',
  ],
  ['Browse the help articles at /v1/help/articles, or ', 'Browse the help articles in the help center, or '],
  [
    'you can add details by writing to this conversation (POST /v1/messaging/messages with its conversation_id).',
    'you can add details by writing to the support team below.',
  ],
];

/** An assistant message as the web app words it (WEB_WORDING); anything else unchanged. */
export function inWebWords(text: string): string {
  return WEB_WORDING.reduce((t, [api, web]) => t.split(api).join(web), text);
}

/** Who the web app says wrote a message sent by the help assistant. */
export const ASSISTANT_NAME = 'Help assistant';
