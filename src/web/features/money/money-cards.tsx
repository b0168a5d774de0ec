import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { WEB_ENTRIES } from '@generated/web/assets';
import type { AppEnv } from '@/http/app-types';
import { serviceCtx } from '@/http/create-app';
import { simulatorConfirmSetupIntent } from '@/local/payment-simulator';
import { AppError } from '@/lib/errors';
import { createCardSetup, deleteCard, listCards, paymentGateway, saveCard, setDefaultCard } from '@/services/payments';
import { Card, CsrfField, IdempotencyField, Notice, SubmitButton, TextField } from '@/web/components';
import { formFields } from '@/web/forms';
import { renderPage } from '@/web/render';
import { STRIPE_JS, stripeCsp } from '../finance/authenticate';
import { ConfirmView } from '../dashboard/confirm';
import { seesPay } from '@/services/access';
import { type DashboardBase, dashboardBase, dashboardHref } from '../dashboard/context';
import { cardName, MONEY, renderOwnersOnly } from './money';
import { AppShell } from '../dashboard/shell';

/**
 * The saved cards of /dashboard/money: make one the default, delete one (after a confirmation), add
 * one. Adding goes through the processor's card form: with real Stripe keys, Stripe's card element
 * (src/web/features/money/card-form.island.ts; Stripe.js is loaded from js.stripe.com on that page only, under
 * stripeCsp); without them, the local payment simulator's form, a plain form whose post does what
 * Stripe.js and the API do (a SetupIntent, confirmed with the card, then saved).
 */

const cardsHref = (base: DashboardBase, notice?: string) => `${dashboardHref(base, MONEY, { notice })}#cards`;

/** The owner's (or an admin's) business, or the answer to give instead. */
async function moneyBase(c: Context<AppEnv>): Promise<{ base: DashboardBase } | { answer: Response }> {
  const base = await dashboardBase(c);
  if (!base.business) return { answer: c.redirect('/dashboard', 303) };
  if (!seesPay(base.business?.role)) return { answer: await renderOwnersOnly(c, base) };
  return { base };
}

/** A refusal of a card action, shown on a small page with the way back (the list shows the cards as they are). */
function refused(c: Context<AppEnv>, base: DashboardBase, err: unknown): Promise<Response> {
  if (!(err instanceof AppError)) throw err;
  return renderPage(
    c,
    <AppShell base={base} title="Saved cards" current={MONEY} error={err.message}>
      <p>
        <a href={cardsHref(base)}>Back to the saved cards</a>
      </p>
    </AppShell>,
    err.status as ContentfulStatusCode,
  );
}

/** POST …/cards/{id}/default: the card off-session charges use from now on. */
export async function postDefaultCard(c: Context<AppEnv>): Promise<Response> {
  const got = await moneyBase(c);
  if ('answer' in got) return got.answer;
  try {
    await setDefaultCard(serviceCtx(c), got.base.business!.id, c.req.param('pm') ?? '');
  } catch (err) {
    return refused(c, got.base, err);
  }
  return c.redirect(cardsHref(got.base, 'card-default'), 303);
}

/** POST …/cards/{id}/delete: without `confirm`, the confirmation page; with it, the card is detached and forgotten. */
export async function postDeleteCard(c: Context<AppEnv>): Promise<Response> {
  const got = await moneyBase(c);
  if ('answer' in got) return got.answer;
  const { base } = got;
  const ctx = serviceCtx(c);
  const pm = c.req.param('pm') ?? '';
  const f = await formFields(c);
  if (f('confirm') !== '1') {
    const cards = await listCards(ctx, base.business!.id);
    const card = cards.data.find((x) => x.payment_method_id === pm);
    if (!card) return refused(c, base, new AppError('PAYMENT-METHOD-NOT-FND-ERR'));
    const others = cards.data.filter((x) => x.payment_method_id !== pm);
    return renderPage(
      c,
      <ConfirmView
        base={base}
        title="Delete a card"
        current={MONEY}
        action={dashboardHref(base, `${MONEY}/cards/${encodeURIComponent(pm)}/delete`)}
        fields={{ _idem: f('_idem', 255) }}
        confirmLabel={`Delete the ${cardName(card)}`}
        cancelHref={cardsHref(base)}
        danger
      >
        <p>{`Delete the ${cardName(card)}? It is removed from the business and from the payment processor.`}</p>
        <p>
          {card.is_default
            ? others.length
              ? `It is the default card: the ${cardName(others[0]!)} becomes the default.`
              : 'It is the only card: invoices wait until a new card is added.'
            : 'It is not the default card: charges are not affected.'}
        </p>
      </ConfirmView>,
    );
  }
  try {
    await deleteCard(ctx, base.business!.id, pm);
  } catch (err) {
    return refused(c, base, err);
  }
  return c.redirect(cardsHref(base, 'card-deleted'), 303);
}

/** The simulator's test cards, as the form's hint lists them (Stripe's own test numbers). */
const TEST_CARDS = [
  { number: '4242 4242 4242 4242', outcome: 'charges succeed' },
  { number: '4000 0027 6000 3184', outcome: 'every charge asks for 3-D Secure' },
  { number: '4000 0000 0000 0002', outcome: 'charges are declined' },
  { number: '4000 0000 0000 9995', outcome: 'charges are declined: insufficient funds' },
];

function NewCardView(props: {
  base: DashboardBase;
  mode: 'stripe' | 'simulator';
  publishableKey: string;
  number?: string | undefined;
  error?: string | undefined;
  idem?: string | undefined;
}) {
  const { base } = props;
  const b = base.business!;
  const island = WEB_ENTRIES.islands['card-form'];
  if (props.mode === 'stripe') {
    return (
      <AppShell base={base} title="Add a card" current={MONEY} scripts={[STRIPE_JS, island.js]}>
        <Card title={`A card for ${b.name}`}>
          <div
            class="stack"
            data-island="card-form"
            data-props={JSON.stringify({ businessId: b.id, publishableKey: props.publishableKey, doneHref: cardsHref(base, 'card-added') })}
          >
            <p id="card-hint">Your card details go straight to Stripe, our payment processor; we keep only its brand and last 4 digits.</p>
            <fieldset aria-describedby="card-hint card-errors">
              <legend>Card</legend>
              <div id="card-element" class="card-element" />
              <p class="field-error" id="card-errors" role="alert" />
            </fieldset>
            <p id="card-noscript">This form needs JavaScript: turn it on and reload the page.</p>
            <button type="button" class="button button-primary" id="card-save" hidden>
              Save the card
            </button>
          </div>
        </Card>
        <p>
          <a href={cardsHref(base)}>Back to the saved cards</a>
        </p>
      </AppShell>
    );
  }
  return (
    <AppShell
      base={base}
      title="Add a card"
      current={MONEY}
      error={props.error ? 'The card was not saved: see the message beside it.' : undefined}
    >
      <Notice kind="info">
        <p>
          The local payment simulator stands in for the card processor: no real card is charged. It takes Stripe's test cards (any expiry
          date and security code would do with Stripe):
        </p>
        <ul>
          {TEST_CARDS.map((t) => (
            <li>
              <code>{t.number}</code>: {t.outcome}
            </li>
          ))}
        </ul>
      </Notice>
      <Card title={`A card for ${b.name}`}>
        <form method="post" action={dashboardHref(base, `${MONEY}/cards/new`)} class="stack" novalidate>
          <CsrfField token={base.csrfToken} />
          <IdempotencyField value={props.idem} />
          <TextField
            label="Card number"
            name="card_number"
            inputMode="numeric"
            autocomplete="cc-number"
            maxLength={23}
            required
            value={props.number}
            error={props.error}
            autofocus
          />
          <div class="actions">
            <SubmitButton>Save the card</SubmitButton>
            <a class="button button-secondary" href={cardsHref(base)}>
              Cancel
            </a>
          </div>
        </form>
      </Card>
    </AppShell>
  );
}

/** GET …/cards/new: the processor's card form (Stripe's element with real keys, the simulator's form without). */
export async function renderNewCard(c: Context<AppEnv>): Promise<Response> {
  const got = await moneyBase(c);
  if ('answer' in got) return got.answer;
  const gw = paymentGateway(serviceCtx(c));
  const res = await renderPage(c, <NewCardView base={got.base} mode={gw.kind} publishableKey={gw.publishableKey} />);
  if (gw.kind === 'stripe') res.headers.set('Content-Security-Policy', stripeCsp(c));
  return res;
}

/**
 * POST …/cards/new (the simulator only; with real keys the card never reaches this server): a
 * SetupIntent of the business (createCardSetup: the owner or an admin), confirmed at the simulator
 * with the number typed, as Stripe.js's card form would, then recorded (saveCard). A number the
 * simulator declines shows the form again with the number kept and the reason beside it.
 */
export async function postNewCard(c: Context<AppEnv>): Promise<Response> {
  const got = await moneyBase(c);
  if ('answer' in got) return got.answer;
  const { base } = got;
  const ctx = serviceCtx(c);
  const gw = paymentGateway(ctx);
  if (gw.kind !== 'simulator') return c.redirect(dashboardHref(base, `${MONEY}/cards/new`), 303);
  const f = await formFields(c);
  const number = f('card_number', 40).trim();
  const idem = f('_idem', 255);
  const again = (status: ContentfulStatusCode, error: string) =>
    renderPage(c, <NewCardView base={base} mode="simulator" publishableKey="" number={number} error={error} idem={idem} />, status);
  const digits = number.replace(/[\s-]/g, '');
  if (!/^\d{12,19}$/.test(digits)) return again(400, 'Enter the card number: 12 to 19 digits, spaces allowed.');
  try {
    const setup = await createCardSetup(ctx, base.business!.id);
    const confirmed = await simulatorConfirmSetupIntent(ctx, setup.setup_intent_id, { card_number: digits });
    if (confirmed.status !== 'succeeded') {
      return again(422, 'This card was declined: the payment simulator accepts only the test cards listed above.');
    }
    await saveCard(ctx, base.business!.id, { setup_intent_id: setup.setup_intent_id });
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    return again(err.status as ContentfulStatusCode, err.message);
  }
  return c.redirect(cardsHref(base, 'card-added'), 303);
}
