/**
 * The checks the MCP Inspector's `--strict` mode makes on listed tool schemas (its schema portability
 * lint, @modelcontextprotocol/inspector 2.12 `core/json/schemaLint.ts`), restated so the tests of
 * both tool servers hold their tools to it with 0 findings, warnings included:
 * - `boolean-schema` (error): a bare `true`/`false` where a schema object is expected (booleans are
 *   fine only under additionalProperties, unevaluatedProperties, additionalItems, unevaluatedItems);
 * - `type-union` (warning): `type` as an array, e.g. `["string", "null"]`;
 * - `remote-ref` (warning): a `$ref` outside the document;
 * - `untyped-schema` (warning): a schema with no validation keyword at all (`{}` or annotations only).
 * Plus ours: every input property, at any depth, has a description.
 */

type Json = Record<string, unknown>;

const BOOLEAN_VALUED = new Set(['additionalProperties', 'unevaluatedProperties', 'additionalItems', 'unevaluatedItems']);
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
const LIST = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const MAP = ['properties', 'patternProperties', 'dependentSchemas', 'dependencies', '$defs', 'definitions'];
const CONSTRAINING = new Set([
  'type',
  'enum',
  'const',
  'multipleOf',
  'maximum',
  'exclusiveMaximum',
  'minimum',
  'exclusiveMinimum',
  'maxLength',
  'minLength',
  'pattern',
  'format',
  'contentMediaType',
  'contentEncoding',
  'contentSchema',
  'maxItems',
  'minItems',
  'uniqueItems',
  'maxContains',
  'minContains',
  'maxProperties',
  'minProperties',
  'required',
  'dependentRequired',
  'allOf',
  'anyOf',
  'oneOf',
  'not',
  'items',
  'prefixItems',
  'contains',
  'additionalItems',
  'unevaluatedItems',
  'properties',
  'patternProperties',
  'additionalProperties',
  'unevaluatedProperties',
  'propertyNames',
  'dependentSchemas',
  'dependencies',
  '$ref',
  '$dynamicRef',
  '$recursiveRef',
]);
const TYPES = new Set(['null', 'boolean', 'object', 'array', 'number', 'string', 'integer']);

export interface SchemaFinding {
  rule: 'boolean-schema' | 'type-union' | 'remote-ref' | 'untyped-schema' | 'undescribed-input';
  at: string;
}

const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

function walk(node: unknown, at: string, keyword: string | undefined, out: SchemaFinding[]) {
  if (typeof node === 'boolean') {
    if (!keyword || !BOOLEAN_VALUED.has(keyword)) out.push({ rule: 'boolean-schema', at });
    return;
  }
  if (!isObject(node)) return;
  const type = node.type;
  if (Array.isArray(type) && type.length > 0 && type.every((t) => TYPES.has(String(t))) && new Set(type).size === type.length)
    out.push({ rule: 'type-union', at });
  if (typeof node.$ref === 'string' && node.$ref !== '' && !node.$ref.startsWith('#')) out.push({ rule: 'remote-ref', at });
  const constrains = Object.keys(node).some((k) => CONSTRAINING.has(k)) || ('if' in node && ('then' in node || 'else' in node));
  if (!constrains && keyword !== 'not') out.push({ rule: 'untyped-schema', at });
  for (const k of MAP) {
    const m = node[k];
    if (isObject(m)) for (const [name, sub] of Object.entries(m)) walk(sub, `${at}.${k}.${name}`, k, out);
  }
  for (const k of LIST) {
    const list = node[k];
    if (Array.isArray(list)) for (const [i, sub] of list.entries()) walk(sub, `${at}.${k}[${i}]`, k, out);
  }
  for (const k of ONE) {
    if (!(k in node)) continue;
    const v = node[k];
    if (k === 'items' && Array.isArray(v)) {
      for (const [i, sub] of v.entries()) walk(sub, `${at}.items[${i}]`, k, out);
    } else walk(v, `${at}.${k}`, k, out);
  }
}

/** Properties without a description, at any depth (through arrays, anyOf branches and nested objects). */
function undescribed(node: unknown, at: string, out: SchemaFinding[]) {
  if (!isObject(node)) return;
  const props = node.properties;
  if (isObject(props)) {
    for (const [name, sub] of Object.entries(props)) {
      if (!isObject(sub) || typeof sub.description !== 'string' || sub.description.trim() === '')
        out.push({ rule: 'undescribed-input', at: `${at}.${name}` });
      undescribed(sub, `${at}.${name}`, out);
    }
  }
  if (node.items) undescribed(node.items, `${at}[]`, out);
  for (const k of LIST) if (Array.isArray(node[k])) for (const sub of node[k] as unknown[]) undescribed(sub, at, out);
}

export interface ListedTool {
  name: string;
  inputSchema: unknown;
  outputSchema?: unknown;
}

/** Every finding over a tools/list answer, as "tool path rule" lines (empty when all pass). */
export function lintListedTools(tools: ListedTool[]): string[] {
  const lines: string[] = [];
  for (const t of tools) {
    const found: SchemaFinding[] = [];
    walk(t.inputSchema, 'inputSchema', undefined, found);
    if (t.outputSchema !== undefined) walk(t.outputSchema, 'outputSchema', undefined, found);
    undescribed(t.inputSchema, 'inputSchema', found);
    for (const f of found) lines.push(`${t.name} ${f.at} ${f.rule}`);
  }
  return lines;
}
