import { ID_PREFIX, randomBase62 } from '../../lib/ids';

/**
 * Ids of the notifications tables, in the shape of lib/ids (a prefix, `_`, 20 base62 characters):
 * `ndl_` a channel delivery, `psub_` a push subscription.
 */
export const deliveryId = () => `ndl_${randomBase62(20)}`;
export const pushSubscriptionId = () => `psub_${randomBase62(20)}`;

/** The mail outbox row of an email delivery: derived from the delivery, so a retry finds the same email. */
export const emailIdOf = (delivery: string) => `${ID_PREFIX.email}_${delivery.slice(delivery.indexOf('_') + 1)}`;
