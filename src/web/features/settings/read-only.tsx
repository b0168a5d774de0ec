/** /dashboard/settings as a teammate sees it: the business's settings and partners, read-only. */

import type { BusinessView } from '@/services/accounts';
import type { PartnerLinkView } from '@/services/partners';
import { Card, Notice } from '@/web/components';
import { formatMoney } from '@/web/format';
import { PartnersCard } from './partners-card';
import { locationSentence } from './venue-location.model';

/** The settings as a teammate reads them: the same facts, no forms. */
export function ReadOnly({ business: b, links }: { business: BusinessView; links: PartnerLinkView[] }) {
  const yes = (v: boolean) => (v ? 'Yes' : 'No');
  const text = (v: number | null) => (v === null ? '' : String(v));
  return (
    <>
      <Notice kind="info">
        <p>You see the settings as a teammate: only the owner changes them.</p>
      </Notice>
      <Card title="Profile">
        <dl class="pairs">
          <dt>Name</dt>
          <dd>{b.name}</dd>
          <dt>Slug</dt>
          <dd>
            <code>{b.slug}</code>
          </dd>
          <dt>Business id</dt>
          <dd>
            <code>{b.id}</code> <span class="hint">(a partner you link and the API ask for it)</span>
          </dd>
          <dt>Address</dt>
          <dd>{b.address ?? '—'}</dd>
          <dt>Position</dt>
          <dd>{b.latitude !== null && b.longitude !== null ? `${b.latitude}, ${b.longitude}` : '—'}</dd>
          <dt>Time zone</dt>
          <dd>{b.timezone}</dd>
        </dl>
      </Card>
      <Card title="Shifts and pay">
        <dl class="pairs">
          <dt>Clock-in geofence</dt>
          <dd>{b.geofence_radius_m === null ? 'No check' : `${b.geofence_radius_m} m`}</dd>
          <dt>On site</dt>
          <dd>{locationSentence(text(b.latitude), text(b.longitude), text(b.geofence_radius_m))}</dd>
          <dt>Photo at clock-in and out</dt>
          <dd>{yes(b.require_clock_photo)}</dd>
          <dt>Weekly budget</dt>
          <dd>{b.weekly_labor_budget === null ? 'None' : formatMoney(b.weekly_labor_budget, b.currency)}</dd>
          <dt>Auto-fill on cancel</dt>
          <dd>{yes(b.auto_fill_on_cancel)}</dd>
        </dl>
      </Card>
      <PartnersCard links={links} />
    </>
  );
}
