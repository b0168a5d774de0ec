/**
 * The credential form on the shifter's records page: with a document chosen, the credential is created
 * through the API (POST /v1/shifter/{id}/credentials) and its PDF or image sent to its document address
 * (multipart, at most 8 MB, the type told by the service from the bytes); the page then reloads with
 * the new row. A refusal is said beside the form and nothing typed is lost. Without a document (or
 * without script) the form posts to the page as usual.
 */
import { client, newIdempotencyKey, send, write } from '@/web/client/api';
import { eachIsland } from '@/web/client/island';

const MAX_BYTES = 8 * 1024 * 1024;
const csrf = () => document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')?.content ?? '';

eachIsland<{ shifterId: string }>('records', (el, props) => {
  const form = el as HTMLFormElement;
  const file = form.querySelector<HTMLInputElement>('[data-document]');
  const status = form.querySelector<HTMLElement>('[data-status]');
  const say = (t: string, error = false) => {
    if (!status) return;
    status.textContent = t;
    status.classList.toggle('field-error', error);
  };
  form.addEventListener('submit', async (event) => {
    const doc = file?.files?.[0];
    if (!doc) return;
    event.preventDefault();
    if (doc.size > MAX_BYTES) {
      say('The document is over 8 MB: choose a smaller file.', true);
      file?.focus();
      return;
    }
    const data = new FormData(form);
    const value = (k: string) => String(data.get(k) ?? '').trim();
    say('Saving…');
    const created = await send(
      client.v1.shifter[':id'].credentials.$post(
        {
          param: { id: encodeURIComponent(props.shifterId) },
          json: {
            label: value('label'),
            ...(value('issuer') ? { issuer: value('issuer') } : {}),
            ...(value('expires_on') ? { expires_on: value('expires_on') } : {}),
            is_visible: data.get('is_visible') === '1',
          },
        },
        write(),
      ),
    );
    if (!created.ok) {
      say(created.error.message, true);
      return;
    }
    const upload = new FormData();
    upload.append('file', doc, doc.name);
    let res: Response;
    try {
      res = await fetch(`/v1/shifter/${encodeURIComponent(props.shifterId)}/credentials/${encodeURIComponent(created.data.id)}/document`, {
        method: 'POST',
        body: upload,
        headers: { 'X-CSRF-Token': csrf(), 'Idempotency-Key': newIdempotencyKey(), Accept: 'application/json' },
        credentials: 'same-origin',
      });
    } catch {
      say('The credential is saved, but the document could not be sent: check your connection and add it again.', true);
      return;
    }
    if (!res.ok) {
      // Said here, beside the form, in the service's words: the page's notices are fixed sentences.
      const refused = ((await res.json().catch(() => null)) as { error?: { message: string } } | null)?.error?.message;
      say(`Credential “${created.data.label}” added; the document was refused: ${refused ?? res.status}`, true);
      return;
    }
    // The page words it (its fixed notices, src/web/features/shifter-clock/records-page.tsx).
    location.assign(`${location.pathname}?notice=credential_added_with_document`);
  });
});
