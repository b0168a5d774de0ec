/**
 * The linked partners of /dashboard/settings: the list with each one's scopes, its unlink button and
 * the form to change what it may do, and the form to link a partner (the owner's; a teammate gets the
 * list only).
 */

import type { PartnerLinkView } from '@/services/partners';
import { CsrfField, IdempotencyField, InputField, SubmitButton } from '@/web/components';
import { formatDate } from '@/web/format';
import { type DashboardBase, dashboardHref } from '@/web/features/dashboard/context';
import { type LinkFormState, SCOPE_WORDS, SCOPES, type ScopesFormState, SETTINGS } from './settings-shared';

/** What a linked partner may do, changed in place (updatePartnerLink): folded away until asked for, open after a refusal. */
function ScopesForm({
  base,
  link: l,
  n,
  state,
}: {
  base: DashboardBase;
  link: PartnerLinkView;
  n: number;
  state?: ScopesFormState | undefined;
}) {
  const ticked = state?.scopes ?? l.scopes;
  const errorId = `link-${n}-scopes-error`;
  return (
    <details class="scopes-edit" open={Boolean(state)}>
      <summary>{`Change what ${l.client_name} may do`}</summary>
      <form method="post" action={dashboardHref(base, `${SETTINGS}/partners/${encodeURIComponent(l.client_id)}/scopes`)} class="stack">
        <CsrfField token={base.csrfToken} />
        <IdempotencyField value={state?.idem} />
        <fieldset aria-describedby={state ? errorId : undefined}>
          <legend>{`What ${l.client_name} may do for this business`}</legend>
          {SCOPES.map((s) => (
            <div class="choice">
              <input type="checkbox" id={`link-${n}-${s.replace(':', '-')}`} name={`scope:${s}`} value="1" checked={ticked.includes(s)} />
              <label for={`link-${n}-${s.replace(':', '-')}`}>{`${s}: ${SCOPE_WORDS[s]}`}</label>
            </div>
          ))}
          {state ? (
            <p class="field-error" id={errorId}>
              {state.error}
            </p>
          ) : null}
        </fieldset>
        <SubmitButton variant="secondary">Save what it may do</SubmitButton>
      </form>
    </details>
  );
}

export function PartnersCard(props: {
  links: PartnerLinkView[];
  base?: DashboardBase;
  link?: LinkFormState | undefined;
  scopesForm?: ScopesFormState | undefined;
}) {
  const { links, base, link } = props;
  const errors = link?.errors ?? {};
  return (
    <section class="card" id="partners" aria-labelledby="partners-head">
      <h2 id="partners-head">Linked partners</h2>
      <p class="hint">Partners are other services (a scheduling or payroll tool) that act for this business with the scopes it granted.</p>
      {links.length ? (
        <ul class="list-plain">
          {links.map((l, n) => (
            <li class="row-actions">
              <span>
                <strong>{l.client_name}</strong>
                {l.client_status === 'disabled' ? <span class="badge badge-warn">Disabled</span> : null}
                <span class="muted">{` · linked ${formatDate(l.created_at.slice(0, 10))}`}</span>
                <span class="scope-list">
                  {l.scopes.map((s) => (
                    <span class="badge" title={SCOPE_WORDS[s]}>
                      {s}
                    </span>
                  ))}
                </span>
                <span class="visually-hidden">{`: may ${l.scopes.map((s) => SCOPE_WORDS[s] ?? s).join(', ')}`}</span>
              </span>
              {base ? (
                <form
                  method="post"
                  action={dashboardHref(base, `${SETTINGS}/partners/${encodeURIComponent(l.client_id)}/unlink`)}
                  class="inline-form"
                >
                  <CsrfField token={base.csrfToken} />
                  <IdempotencyField />
                  <button type="submit" class="button button-secondary" aria-label={`Unlink ${l.client_name}`}>
                    Unlink
                  </button>
                </form>
              ) : null}
              {base ? (
                <ScopesForm base={base} link={l} n={n} state={props.scopesForm?.client_id === l.client_id ? props.scopesForm : undefined} />
              ) : null}
            </li>
          ))}
        </ul>
      ) : (
        <p class="empty">No partner is linked to this business.</p>
      )}
      {base ? (
        <form method="post" action={dashboardHref(base, `${SETTINGS}/partners`)} class="stack" novalidate id="link-partner">
          <h3>Link a partner</h3>
          <CsrfField token={base.csrfToken} />
          <IdempotencyField value={link?.idem} />
          <InputField
            label="The partner's client id"
            name="client_id"
            type="text"
            value={link?.client_id ?? ''}
            hint="The partner gives it to you; it starts with pc_."
            error={errors.client_id}
            autofocus={Boolean(errors.client_id)}
          />
          <fieldset aria-describedby={errors.scopes ? 'scopes-error' : 'scopes-hint'}>
            <legend>What it may do (none ticked: everything the partner asks for)</legend>
            {SCOPES.map((s) => (
              <div class="choice">
                <input
                  type="checkbox"
                  id={`scope-${s.replace(':', '-')}`}
                  name={`scope:${s}`}
                  value="1"
                  checked={link?.scopes.includes(s)}
                />
                <label for={`scope-${s.replace(':', '-')}`}>{`${s}: ${SCOPE_WORDS[s]}`}</label>
              </div>
            ))}
            {errors.scopes ? (
              <p class="field-error" id="scopes-error">
                {errors.scopes}
              </p>
            ) : (
              <p class="hint" id="scopes-hint">
                A partner gets only scopes its own registration has.
              </p>
            )}
          </fieldset>
          <SubmitButton variant="secondary">Link the partner</SubmitButton>
        </form>
      ) : null}
    </section>
  );
}
