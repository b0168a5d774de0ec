// The records page's credentials card: the list with its flags, show/hide and delete, and the add
// form whose document the `records` island uploads.
import type { CredentialView } from '@/services/shifter-records';
import { Card, CsrfField, IdempotencyField, InputField, SubmitButton, TextField } from '@/web/components';
import type { DashboardBase } from '@/web/features/dashboard/context';
import { dayMonthYear, PATH, type Refused } from './records-shared';

function CredentialFlags({ cr }: { cr: CredentialView }) {
  return (
    <>
      {cr.expired ? <span class="badge badge-warn">Expired</span> : cr.expiring ? <span class="badge badge-warn">Expires soon</span> : null}
      <span class="badge">{cr.is_visible ? 'Visible to businesses' : 'Only you'}</span>
      {cr.has_document ? <span class="badge">{cr.document_type === 'application/pdf' ? 'PDF' : 'Image'}</span> : null}
    </>
  );
}

export function CredentialsCard({ base, items, refused }: { base: DashboardBase; items: CredentialView[]; refused: Refused }) {
  const isNew = refused.target === 'new';
  const errors = isNew ? refused.errors : {};
  const typed = isNew ? refused.typed : {};
  return (
    <Card title="Credentials">
      {items.length ? (
        <ul class="list-plain record-list" data-credentials>
          {items.map((cr) => (
            <li>
              <strong>{cr.label}</strong>
              {cr.issuer ? <span class="muted">{` · ${cr.issuer}`}</span> : null}
              {cr.expires_on ? <span class="muted">{` · expires ${dayMonthYear(cr.expires_on)}`}</span> : null} <CredentialFlags cr={cr} />
              {refused.target === cr.id && refused.errors._ ? <p class="field-error">{refused.errors._}</p> : null}
              <form method="post" action={`${PATH}/credentials/${encodeURIComponent(cr.id)}`} class="record-actions">
                <CsrfField token={base.csrfToken} />
                <IdempotencyField />
                <button type="submit" class="button button-secondary" name="action" value={cr.is_visible ? 'hide' : 'show'}>
                  {cr.is_visible ? 'Hide from businesses' : 'Show to businesses'}
                  <span class="visually-hidden">{`: ${cr.label}`}</span>
                </button>
                <button type="submit" class="button button-danger" name="action" value="delete">
                  Delete<span class="visually-hidden">{` ${cr.label}`}</span>
                </button>
              </form>
            </li>
          ))}
        </ul>
      ) : (
        <p class="empty">No credential yet: a food handler card, a license, a certificate.</p>
      )}
      <h3>Add a credential</h3>
      {errors._ ? <p class="field-error">{errors._}</p> : null}
      <form
        method="post"
        action={`${PATH}/credentials`}
        class="form-grid"
        data-island="records"
        data-props={JSON.stringify({ shifterId: base.shifterId })}
      >
        <CsrfField token={base.csrfToken} />
        <IdempotencyField />
        <TextField label="Name" name="label" value={typed.label} required maxLength={120} error={errors.label} />
        <TextField label="Issuer" name="issuer" value={typed.issuer} maxLength={200} error={errors.issuer} />
        <InputField label="Expires on" name="expires_on" type="date" value={typed.expires_on} error={errors.expires_on} />
        <div class="field">
          <label for="credential-document">Document (PDF or image, up to 8 MB)</label>
          <input
            id="credential-document"
            type="file"
            accept="application/pdf,image/*"
            data-document
            aria-describedby="credential-document-hint"
          />
          <p class="hint" id="credential-document-hint">
            Sent with the credential when script is on; add it later otherwise.
          </p>
        </div>
        <div class="choice">
          <input type="checkbox" id="credential-visible" name="is_visible" value="1" checked={typed.is_visible !== '0'} />
          <label for="credential-visible">Businesses I work with may see it</label>
        </div>
        <p class="form-status" data-status role="status" aria-live="polite" />
        <SubmitButton>Add credential</SubmitButton>
      </form>
    </Card>
  );
}
