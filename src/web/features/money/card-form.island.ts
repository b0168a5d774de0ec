import { client, newIdempotencyKey, send, write } from '@/web/client/api';
import { eachIsland } from '@/web/client/island';

/**
 * Adding a card with real Stripe keys: Stripe's card element (Stripe.js, loaded from js.stripe.com on
 * this page only: card numbers never touch our pages or server). "Save the card" makes a SetupIntent
 * (POST /v1/business/{id}/payment_methods/setup_intent), confirms it in the element
 * (stripe.confirmCardSetup, which runs the bank's check when the card asks for one), then records the
 * card (POST /v1/business/{id}/payment_methods) and goes back to the saved cards. A refusal is said
 * beside the element. Without keys the page has the payment simulator's plain form instead.
 */

interface Props {
  businessId: string;
  publishableKey: string;
  doneHref: string;
}

/** The few Stripe.js calls used here (https://docs.stripe.com/js). */
interface StripeCardElement {
  mount(el: HTMLElement): void;
  on(event: 'change', handler: (e: { error?: { message: string } }) => void): void;
}
interface StripeJs {
  elements(): { create(type: 'card', options?: Record<string, unknown>): StripeCardElement };
  confirmCardSetup(
    clientSecret: string,
    data: { payment_method: { card: StripeCardElement } },
  ): Promise<{ error?: { message?: string }; setupIntent?: { id: string; status: string } }>;
}
declare global {
  interface Window {
    Stripe?: (publishableKey: string) => StripeJs;
  }
}

function mount(root: HTMLElement, props: Props) {
  const host = root.querySelector<HTMLElement>('#card-element');
  const errors = root.querySelector<HTMLElement>('#card-errors');
  const save = root.querySelector<HTMLButtonElement>('#card-save');
  const say = (text: string) => {
    if (errors) errors.textContent = text;
  };
  if (!host || !save) return;
  if (typeof window.Stripe !== 'function') {
    say('The card form could not load. Check your connection and reload the page.');
    return;
  }
  root.querySelector<HTMLElement>('#card-noscript')?.setAttribute('hidden', '');
  const stripe = window.Stripe(props.publishableKey);
  const css = getComputedStyle(document.documentElement);
  const card = stripe.elements().create('card', {
    style: { base: { color: css.getPropertyValue('--text').trim() || '#1a1a1a', fontSize: '16px' } },
  });
  card.mount(host);
  card.on('change', (e) => say(e.error?.message ?? ''));
  save.hidden = false;
  // One key per attempt at the setup, so a double click makes one SetupIntent.
  let setupKey = newIdempotencyKey();

  save.addEventListener('click', async () => {
    save.disabled = true;
    say('');
    const cards = client.v1.business[':id'].payment_methods;
    const param = { id: encodeURIComponent(props.businessId) };
    const setup = await send(cards.setup_intent.$post({ param }, write({ idempotencyKey: setupKey })));
    if (!setup.ok) {
      save.disabled = false;
      say(setup.error.message);
      return;
    }
    const confirmed = await stripe.confirmCardSetup(setup.data.client_secret, { payment_method: { card } });
    if (confirmed.error) {
      // The intent stays unconfirmed; the next attempt makes a new one.
      setupKey = newIdempotencyKey();
      save.disabled = false;
      say(confirmed.error.message ?? 'The card was not accepted.');
      return;
    }
    const saved = await send(cards.$post({ param, json: { setup_intent_id: setup.data.setup_intent_id } }, write()));
    if (!saved.ok) {
      save.disabled = false;
      say(saved.error.message);
      return;
    }
    window.location.assign(props.doneHref);
  });
}

eachIsland<Props>('card-form', mount);
