/**
 * Request fields with a default stay optional in generated clients. A zod `.default()` becomes the
 * schema's `default`, which is right for the service (it fills the value in), but openapi-typescript
 * (with its `defaultNonNullable`, on by default) makes every property with a `default` required,
 * except in inline request bodies: a request body named as a component (`components.schemas.X`)
 * came out with its defaulted fields required, so a client had to send `limit` to list shifts.
 *
 * For each component schema that only request bodies use, a property with a `default` that is not
 * required keeps the value in its description and in `x-default`, instead of `default`. Schemas a
 * response also uses keep `default` (there the value is always present). See
 * docs/decisions/api-document-and-tooling.md.
 */
type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Every `$ref` to a component schema under `node`, by name. */
function refsUnder(node: unknown, into: Set<string>): Set<string> {
  if (Array.isArray(node)) for (const v of node) refsUnder(v, into);
  else if (isObject(node)) {
    const ref = node.$ref;
    if (typeof ref === 'string' && ref.startsWith('#/components/schemas/')) into.add(ref.slice('#/components/schemas/'.length));
    for (const v of Object.values(node)) refsUnder(v, into);
  }
  return into;
}

/** The names reachable from `roots` through the schemas' own references. */
function closure(roots: Set<string>, schemas: Json): Set<string> {
  const seen = new Set<string>();
  const todo = [...roots];
  while (todo.length) {
    const name = todo.pop()!;
    if (seen.has(name)) continue;
    seen.add(name);
    for (const next of refsUnder(schemas[name], new Set())) if (!seen.has(next)) todo.push(next);
  }
  return seen;
}

export function requestDefaultsOptional<D extends { paths?: unknown; components?: unknown; webhooks?: unknown }>(doc: D): D {
  const schemas = isObject(doc.components) && isObject(doc.components.schemas) ? doc.components.schemas : null;
  if (!schemas || !isObject(doc.paths)) return doc;
  const inRequests = new Set<string>();
  const elsewhere = new Set<string>();
  for (const item of Object.values(doc.paths)) {
    if (!isObject(item)) continue;
    for (const op of Object.values(item)) {
      if (!isObject(op)) continue;
      refsUnder(op.requestBody, inRequests);
      refsUnder(op.responses, elsewhere);
      refsUnder(op.parameters, elsewhere);
    }
  }
  refsUnder(doc.webhooks, elsewhere);
  const keep = closure(elsewhere, schemas);
  for (const name of closure(inRequests, schemas)) {
    const schema = schemas[name];
    if (keep.has(name) || !isObject(schema) || !isObject(schema.properties)) continue;
    const required = new Set(Array.isArray(schema.required) ? schema.required : []);
    for (const [key, prop] of Object.entries(schema.properties)) {
      if (!isObject(prop) || !('default' in prop) || required.has(key)) continue;
      const { default: value, ...rest } = prop;
      const said = `Default: ${JSON.stringify(value)}.`;
      const description = typeof rest.description === 'string' ? `${rest.description} ${said}` : said;
      schema.properties[key] = { ...rest, description, 'x-default': value };
    }
  }
  return doc;
}
