import { randomBase62 } from './ids';

/** URL slug from a display name, with a short random tail so two "Blue Door Cafe"s never collide. */
export function makeSlug(name: string): string {
  const base = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40);
  return `${base || 'profile'}-${randomBase62(6).toLowerCase()}`;
}
