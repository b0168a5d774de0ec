import type { StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import { z } from 'zod';

/**
 * The JSON Schema tool clients are given (tools/list), on the remote server and the stdio one alike:
 * draft 2020-12 as zod writes it, in the forms strict schema checks accept (the Inspector's `--strict`
 * portability lint) and single-type dialects (Gemini's function declarations) can read:
 * - a `type` array (zod's spelling of a nullable scalar, `["string", "null"]`) becomes `anyOf`
 *   branches of one type each, the other keywords going with the non-null branch;
 * - an empty schema where a boolean is allowed (`additionalProperties: {}` of a loose object) becomes
 *   `true`, which says the same.
 * Validation is zod's either way; only the listed document changes.
 */

type Json = Record<string, unknown>;

/** Keywords holding one subschema, a map of them, or a list of them (JSON Schema 2020-12). */
const ONE = [
  'items',
  'contains',
  'not',
  'propertyNames',
  'if',
  'then',
  'else',
  'additionalProperties',
  'unevaluatedProperties',
  'additionalItems',
  'unevaluatedItems',
  'contentSchema',
];
const MAP = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];
const LIST = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
/** Where `true` may stand for "any value" (the lint accepts booleans only there). */
const BOOLEAN_VALUED = new Set(['additionalProperties', 'unevaluatedProperties', 'additionalItems', 'unevaluatedItems']);
/** Annotations stay on a split node; every other keyword goes into its non-null branch. */
const ANNOTATIONS = new Set([
  '$schema',
  '$id',
  '$comment',
  'title',
  'description',
  'default',
  'examples',
  'deprecated',
  'readOnly',
  'writeOnly',
]);

const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

function portable(node: unknown, keyword?: string): unknown {
  if (!isObject(node)) return node;
  if (keyword && BOOLEAN_VALUED.has(keyword) && Object.keys(node).length === 0) return true;
  const out: Json = {};
  for (const [k, v] of Object.entries(node)) {
    if (ONE.includes(k)) out[k] = Array.isArray(v) ? v.map((s) => portable(s)) : portable(v, k);
    else if (MAP.includes(k) && isObject(v)) out[k] = Object.fromEntries(Object.entries(v).map(([n, s]) => [n, portable(s)]));
    else if (LIST.includes(k) && Array.isArray(v)) out[k] = v.map((s) => portable(s));
    else out[k] = v;
  }
  if (!Array.isArray(out.type)) return out;
  const kept: Json = {};
  const rest: Json = {};
  for (const [k, v] of Object.entries(out)) if (k !== 'type') (ANNOTATIONS.has(k) ? kept : rest)[k] = v;
  return { ...kept, anyOf: (out.type as string[]).map((t) => (t === 'null' ? { type: 'null' } : { type: t, ...rest })) };
}

/** A zod schema as tool clients read it (see above). */
export function toolJsonSchema(schema: z.ZodType, io: 'input' | 'output'): Json {
  return portable(z.toJSONSchema(schema, { target: 'draft-2020-12', io })) as Json;
}

const memo = new WeakMap<z.ZodType, { input?: Json; output?: Json }>();
function memoized(schema: z.ZodType, io: 'input' | 'output'): Json {
  let m = memo.get(schema);
  if (!m) {
    m = {};
    memo.set(schema, m);
  }
  m[io] ??= toolJsonSchema(schema, io);
  return m[io];
}

/** The zod schema for the MCP SDK: validated by zod, listed as `toolJsonSchema` writes it. */
export function forToolClients<S extends z.ZodType>(schema: S): StandardSchemaWithJSON<z.input<S>, z.output<S>> {
  const std = schema['~standard'];
  return {
    '~standard': {
      version: 1,
      vendor: std.vendor,
      validate: std.validate,
      jsonSchema: { input: () => memoized(schema, 'input'), output: () => memoized(schema, 'output') },
    },
  } as StandardSchemaWithJSON<z.input<S>, z.output<S>>;
}

/**
 * The input schema for the MCP SDK when the caller validates the arguments itself (the remote
 * server's one wrapper, so a refusal gets our error code and its audit row): listed as above, passed
 * through by the SDK as sent.
 */
export function listedInputOnly(schema: z.ZodType): StandardSchemaWithJSON<Record<string, unknown>> {
  return {
    '~standard': {
      version: 1,
      vendor: 'shiftmarket',
      validate: (value: unknown) => ({ value: (value ?? {}) as Record<string, unknown> }),
      jsonSchema: { input: () => memoized(schema, 'input'), output: () => memoized(schema, 'input') },
    },
  };
}
