import type { shiftRequests } from '../../db/schema';
import type { ServiceContext } from '../../services/kernel';

/** What the base demo seed made, for the parts of the demo world seeded after it (reviews, threads…). */
export interface DemoWorld {
  now: number;
  /** User id of a cast member (cast.ts PEOPLE keys: 'owner', 'jordan', 'admin', …). */
  userId(person: string): string;
  /** Business id by cast key (cast.ts BUSINESSES). */
  businessId(key: string): string;
  /** Shifter id by the cast person key. */
  shifterId(person: string): string;
  /** Every demo shift request row. */
  shifts: Array<typeof shiftRequests.$inferInsert>;
}

/**
 * A later part of the demo world: seeds its rows (through the services where a Durable Object or a
 * rule is involved) once the base rows exist, and returns how many things it made, for the log.
 */
export type DemoExtra = { name: string; seed(ctx: ServiceContext, world: DemoWorld): Promise<number> };
