import { createRouter, serviceCtx } from '../../http/create-app';
import { storedFileHeaders } from '../../lib/downloads';
import * as rules from '../../services/shifter-records';
import * as creds from '../../services/shifter-records';
import * as mileage from '../../services/shifter-records';
import * as cr from './counter-rules.routes';
import * as cd from './credentials.routes';
import * as mi from './mileage.routes';

/**
 * Shifter-owned records: mileage, counter rules, credentials (spec 4.5). One service call per
 * handler: the services take the validated input and return the response view.
 */
export const shifterRecordsRouter = createRouter()
  .openapi(mi.listMileage, async (c) =>
    c.json(await mileage.listMileage(serviceCtx(c), c.req.valid('param').id, c.req.valid('query')), 200),
  )
  .openapi(mi.createMileage, async (c) =>
    c.json(await mileage.createMileage(serviceCtx(c), c.req.valid('param').id, c.req.valid('json')), 201),
  )
  .openapi(mi.getMileage, async (c) => {
    const p = c.req.valid('param');
    return c.json(await mileage.getMileage(serviceCtx(c), p.id, p.entry_id), 200);
  })
  .openapi(mi.patchMileage, async (c) => {
    const p = c.req.valid('param');
    return c.json(await mileage.updateMileage(serviceCtx(c), p.id, p.entry_id, c.req.valid('json')), 200);
  })
  .openapi(mi.putMileage, async (c) => {
    const p = c.req.valid('param');
    return c.json(await mileage.updateMileage(serviceCtx(c), p.id, p.entry_id, c.req.valid('json')), 200);
  })
  .openapi(mi.deleteMileage, async (c) => {
    const p = c.req.valid('param');
    return c.json(await mileage.deleteMileage(serviceCtx(c), p.id, p.entry_id), 200);
  })
  .openapi(cr.listCounterRules, async (c) => c.json(await rules.listCounterRules(serviceCtx(c), c.req.valid('param').id), 200))
  .openapi(cr.createCounterRule, async (c) =>
    c.json(await rules.createCounterRule(serviceCtx(c), c.req.valid('param').id, c.req.valid('json')), 201),
  )
  // Registered before /{rule_id} so "suggest" is never read as a rule id.
  .openapi(cr.suggestCounter, async (c) =>
    c.json(await rules.suggestForRequest(serviceCtx(c), c.req.valid('param').id, c.req.valid('query')), 200),
  )
  .openapi(cr.getCounterRule, async (c) => {
    const p = c.req.valid('param');
    return c.json(await rules.getCounterRule(serviceCtx(c), p.id, p.rule_id), 200);
  })
  .openapi(cr.updateCounterRule, async (c) => {
    const p = c.req.valid('param');
    return c.json(await rules.updateCounterRule(serviceCtx(c), p.id, p.rule_id, c.req.valid('json')), 200);
  })
  .openapi(cr.deleteCounterRule, async (c) => {
    const p = c.req.valid('param');
    return c.json(await rules.deleteCounterRule(serviceCtx(c), p.id, p.rule_id), 200);
  })
  .openapi(cd.listCredentials, async (c) => c.json(await creds.listCredentials(serviceCtx(c), c.req.valid('param').id), 200))
  .openapi(cd.createCredential, async (c) =>
    c.json(await creds.createCredential(serviceCtx(c), c.req.valid('param').id, c.req.valid('json')), 201),
  )
  .openapi(cd.getCredential, async (c) => {
    const p = c.req.valid('param');
    return c.json(await creds.getCredential(serviceCtx(c), p.id, p.credential_id), 200);
  })
  .openapi(cd.updateCredential, async (c) => {
    const p = c.req.valid('param');
    return c.json(await creds.updateCredential(serviceCtx(c), p.id, p.credential_id, c.req.valid('json')), 200);
  })
  .openapi(cd.deleteCredential, async (c) => {
    const p = c.req.valid('param');
    return c.json(await creds.deleteCredential(serviceCtx(c), p.id, p.credential_id), 200);
  })
  .openapi(cd.uploadDocument, async (c) => {
    const p = c.req.valid('param');
    return c.json(await creds.uploadCredentialDocument(serviceCtx(c), p.id, p.credential_id, c.req.valid('form').file), 201);
  })
  .openapi(cd.readDocument, async (c) => {
    const p = c.req.valid('param');
    const doc = await creds.readCredentialDocument(serviceCtx(c), p.id, p.credential_id);
    return c.body(doc.body, 200, storedFileHeaders(doc));
  })
  .openapi(cd.deleteDocument, async (c) => {
    const p = c.req.valid('param');
    return c.json(await creds.deleteCredentialDocument(serviceCtx(c), p.id, p.credential_id), 200);
  });
