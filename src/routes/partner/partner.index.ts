import { PARTNER_TOKEN_PATH } from '../../http/middleware/partner-auth';
import { createRouter, serviceCtx } from '../../http/create-app';
import {
  createClient,
  getClient,
  issueClientToken,
  linkPartnerClient,
  listClients,
  listLinkedBusinesses,
  listPartnerBroadcasts,
  listPartnerLinks,
  listPartnerShifters,
  listPartnerShifts,
  postPartnerShift,
  rotateClientCredential,
  unlinkPartnerClient,
  updateClient,
  updatePartnerLink,
} from '../../services/partners';
import type { PartnerScope } from '../../services/kernel';
import * as clients from './clients.routes';
import * as links from './links.routes';
import * as partner from './partner.routes';

const SCOPE_DESCRIPTIONS: Record<PartnerScope, string> = {
  'shifts:read': 'Read a linked business’s shift requests and open broadcasts.',
  'shifts:write': 'Post shifts for a linked business.',
  'shifters:read': 'Read a linked business’s crew.',
  'webhooks:manage': 'Manage the client’s webhook endpoints.',
};

const base = createRouter();
base.openAPIRegistry.registerComponent('securitySchemes', 'partnerApiKey', {
  type: 'apiKey',
  in: 'header',
  name: 'x-api-key',
  description: 'A partner client’s API key (`smp_…`), for server-to-server calls on /v1/partner/*.',
});
base.openAPIRegistry.registerComponent('securitySchemes', 'partnerOAuth', {
  type: 'oauth2',
  description: 'OAuth 2.0 client credentials: an access token (`smpt_…`) from the token route, sent as `Authorization: Bearer`.',
  flows: { clientCredentials: { tokenUrl: PARTNER_TOKEN_PATH, scopes: SCOPE_DESCRIPTIONS } },
});
base.openAPIRegistry.registerComponent('securitySchemes', 'partnerClientBasic', {
  type: 'http',
  scheme: 'basic',
  description: 'A partner client’s id and secret (`client_id:client_secret`), on the token route only.',
});

/** The partner surface: client management and links (people), the token route, and the partner routes. */
export const partnerRouter = base
  .openapi(clients.createClient, async (c) => {
    const issued = await createClient(serviceCtx(c), c.req.valid('json'));
    c.header('Cache-Control', 'no-store');
    return c.json(issued, 201);
  })
  .openapi(clients.listClients, async (c) => c.json(await listClients(serviceCtx(c), c.req.valid('query')), 200))
  .openapi(clients.getClient, async (c) => c.json(await getClient(serviceCtx(c), c.req.valid('param').client_id), 200))
  .openapi(clients.updateClient, async (c) =>
    c.json(await updateClient(serviceCtx(c), c.req.valid('param').client_id, c.req.valid('json')), 200),
  )
  .openapi(clients.rotateApiKey, async (c) => {
    const rotated = await rotateClientCredential(serviceCtx(c), c.req.valid('param').client_id, 'api_key', c.req.valid('json'));
    c.header('Cache-Control', 'no-store');
    return c.json(rotated, 201);
  })
  .openapi(clients.rotateClientSecret, async (c) => {
    const rotated = await rotateClientCredential(serviceCtx(c), c.req.valid('param').client_id, 'client_secret', c.req.valid('json'));
    c.header('Cache-Control', 'no-store');
    return c.json(rotated, 201);
  })
  .openapi(
    clients.issueToken,
    async (c) => {
      const r = await issueClientToken(serviceCtx(c), c.req.header('Authorization'), c.req.valid('form'));
      c.header('Cache-Control', 'no-store');
      c.header('Pragma', 'no-cache');
      if (r.ok) return c.json(r.body, 200);
      if (r.challenge) c.header('WWW-Authenticate', 'Basic realm="shiftmarket-partner", charset="UTF-8"');
      return r.status === 401 ? c.json(r.body, 401) : c.json(r.body, 400);
    },
    (result, c) => {
      if (!result.success) {
        const fields = result.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; ');
        return c.json({ error: 'invalid_request' as const, error_description: fields }, 400);
      }
    },
  )
  .openapi(links.link, async (c) =>
    c.json(await linkPartnerClient(serviceCtx(c), c.req.valid('param').business_id, c.req.valid('json')), 201),
  )
  .openapi(links.list, async (c) =>
    c.json(await listPartnerLinks(serviceCtx(c), c.req.valid('param').business_id, c.req.valid('query')), 200),
  )
  .openapi(links.update, async (c) => {
    const { business_id, client_id } = c.req.valid('param');
    return c.json(await updatePartnerLink(serviceCtx(c), business_id, client_id, c.req.valid('json')), 200);
  })
  .openapi(links.unlink, async (c) => {
    const { business_id, client_id } = c.req.valid('param');
    return c.json(await unlinkPartnerClient(serviceCtx(c), business_id, client_id), 200);
  })
  .openapi(partner.listBusinesses, async (c) => c.json(await listLinkedBusinesses(serviceCtx(c), c.req.valid('query')), 200))
  .openapi(partner.listShiftRequests, async (c) =>
    c.json(await listPartnerShifts(serviceCtx(c), c.req.valid('param').business_id, c.req.valid('query')), 200),
  )
  .openapi(partner.postShiftRequest, async (c) =>
    c.json(await postPartnerShift(serviceCtx(c), c.req.valid('param').business_id, c.req.valid('json')), 201),
  )
  .openapi(partner.listBroadcasts, async (c) =>
    c.json(await listPartnerBroadcasts(serviceCtx(c), c.req.valid('param').business_id, c.req.valid('query')), 200),
  )
  .openapi(partner.listShifters, async (c) =>
    c.json(await listPartnerShifters(serviceCtx(c), c.req.valid('param').business_id, c.req.valid('query')), 200),
  );
