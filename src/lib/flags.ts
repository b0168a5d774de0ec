import { z } from '@hono/zod-openapi';

/**
 * A 1/0 flag as responses write it (the spec's style); typed number like the views that build it.
 * Here rather than beside the route helpers because the services' response schemas use it too.
 */
export const flag01 = z
  .number()
  .int()
  .openapi({ enum: [0, 1], description: '1 = yes, 0 = no.' });
