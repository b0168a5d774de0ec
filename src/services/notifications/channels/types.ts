import type { notificationDeliveries } from '../../../db/schema';
import type { ServiceContext } from '../../kernel';
import type { OutboundChannel } from '../catalog';

/** A claimed delivery row: what to send, to whom, on which channel. */
export type Delivery = typeof notificationDeliveries.$inferSelect;

/**
 * What a channel made of one delivery. `sent`: the provider (or the local stand-in) took it;
 * `skipped`: there was nowhere to send it (no verified email, no phone, the browser unsubscribed);
 * `failed`: the provider refused it for good (a retry would be refused too). A passing failure (a
 * timeout, a 5xx, a 429) is thrown instead: the delivery goes back to the queue with backoff.
 */
export type SendOutcome =
  | { status: 'sent'; provider: string; destination: string | null }
  | { status: 'skipped' | 'failed'; provider: string | null; destination: string | null; reason: string };

/** One channel behind the one interface: email, SMS and Web Push each with a real provider and a local stand-in. */
export interface ChannelAdapter {
  readonly channel: OutboundChannel;
  send(ctx: ServiceContext, delivery: Delivery): Promise<SendOutcome>;
}
