// The records page itself: its notices and renderRecords, which draws every card (and, after a
// refused form, the page again with that form's messages).
import type { Context } from 'hono';
import { WEB_ENTRIES } from '@generated/web/assets';
import type { AppEnv } from '@/http/app-types';
import { serviceCtx } from '@/http/create-app';
import { getPayoutAccount, listPayouts } from '@/services/payments';
import { listCounterRules, listCredentials, listMileage } from '@/services/shifter-records';
import { Card, CsrfField, IdempotencyField, SubmitButton } from '@/web/components';
import { dashboardBase } from '@/web/features/dashboard/context';
import { AppShell } from '@/web/features/dashboard/shell';
import { renderPage } from '@/web/render';
import { CredentialsCard } from './records-credentials';
import { MileageCard } from './records-mileage';
import { PayoutList } from './records-payouts';
import { RulesCard } from './records-rules';
import { NONE, PATH, type Refused, yearOf } from './records-shared';

/** The page's notices, by the key in `?notice=` (the forms' redirects and the records island): the address picks one, never writes one. */
const NOTICES: Record<string, string> = {
  trip_added: 'Trip added.',
  trip_saved: 'Trip saved.',
  trip_deleted: 'Trip deleted.',
  credential_added: 'Credential added.',
  credential_added_with_document: 'Credential added with its document.',
  credential_deleted: 'Credential deleted.',
  credential_shown: 'The credential is visible to businesses you work with.',
  credential_hidden: 'The credential is now seen by you alone.',
  rule_added: 'Counter rule added.',
  rule_saved: 'Counter rule saved.',
  rule_deleted: 'Counter rule deleted.',
};

export async function renderRecords(
  c: Context<AppEnv>,
  opts: { mileage?: Refused; credential?: Refused; rule?: Refused; status?: 400 | 403 | 404 | 409 | 422 | 429 } = {},
) {
  const base = await dashboardBase(c);
  if (!base.shifterId) return c.redirect('/dashboard', 303);
  const ctx = serviceCtx(c);
  const [mileage, credentials, rules, payout, payouts] = await Promise.all([
    listMileage(ctx, base.shifterId, { year: yearOf(c), limit: 100 }),
    listCredentials(ctx, base.shifterId),
    listCounterRules(ctx, base.shifterId),
    getPayoutAccount(ctx, {}),
    listPayouts(ctx),
  ]);
  const island = WEB_ENTRIES.islands.records;
  const failed = Boolean(opts.mileage || opts.credential || opts.rule);
  return renderPage(
    c,
    <AppShell
      base={base}
      side="shifter"
      current={PATH}
      title="Records"
      notice={failed ? undefined : NOTICES[c.req.query('notice') ?? '']}
      error={failed ? 'Not saved: see the form below.' : undefined}
      scripts={island ? [island.js] : []}
    >
      <div class="grid records-grid">
        <MileageCard base={base} list={mileage} refused={opts.mileage ?? NONE} />
        <CredentialsCard base={base} items={credentials.data} refused={opts.credential ?? NONE} />
        <RulesCard base={base} rules={rules.data} currency={mileage.rollup.currency} refused={opts.rule ?? NONE} />
        <Card title="Payout account">
          <p data-payout-status>
            {!payout.set_up
              ? 'Not set up: set it up to be paid for your shifts.'
              : payout.payouts_enabled
                ? 'Ready: payouts are enabled.'
                : payout.details_submitted
                  ? 'Details sent: waiting for the payment provider to turn payouts on.'
                  : 'Started: finish setting up payouts to be paid.'}
          </p>
          {payout.payouts_enabled ? null : (
            <form method="post" action={`${PATH}/payout`}>
              <CsrfField token={base.csrfToken} />
              <IdempotencyField />
              <SubmitButton variant="secondary">{payout.set_up ? 'Finish setting up payouts' : 'Set up payouts'}</SubmitButton>
            </form>
          )}
          <h3>Latest payouts</h3>
          <PayoutList rows={payouts} />
        </Card>
      </div>
    </AppShell>,
    opts.status ?? (failed ? 422 : 200),
  );
}
