import Ajv, { ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

type OpenApiDoc = { paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: object }> }> }>>; components: object };

/**
 * OpenAPI 3.0 schemas to JSON Schema, reading `nullable` as the specification (3.0.3) and standard
 * validators do: it adds null to the `type` of the same schema object, and has no effect where that
 * object has no `type` (beside `allOf` or a `$ref`, for instance), so null is refused there.
 */
export function toJsonSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(toJsonSchema);
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) out[k] = toJsonSchema(v);
  if ('nullable' in out) {
    const nullable = out.nullable === true;
    delete out.nullable;
    if (nullable && typeof out.type === 'string') {
      out.type = [out.type, 'null'];
      if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
    }
  }
  return out;
}

/**
 * Checks live responses against the app's own OpenAPI document: the status must be documented for
 * that operation and a JSON body must match its schema. Used by every e2e suite through startApp().
 */
export class OpenApiResponseValidator {
  private readonly ajv = new Ajv({ strict: false, allErrors: false, validateFormats: true });
  private readonly cache = new Map<string, ValidateFunction>();
  readonly violations: string[] = [];
  checked = 0;

  constructor(private readonly doc: OpenApiDoc) {
    addFormats(this.ajv);
    this.ajv.addSchema({ $id: 'openapi', components: toJsonSchema(doc.components) } as object);
  }

  check(method: string, url: string, status: number, contentType: string | undefined, body: unknown): void {
    const path = url.replace(/^https?:\/\/[^/]+/, '').split('?', 1)[0];
    const operation = this.doc.paths[path]?.[method.toLowerCase()];
    if (!operation) return; // not an API route (docs, unknown paths answered 404)
    this.checked++;
    const where = `${method.toUpperCase()} ${path} -> ${status}`;
    const response = operation.responses[String(status)] ?? operation.responses.default;
    if (!response) {
      this.violations.push(`${where}: status not documented`);
      return;
    }
    const schema = response.content?.['application/json']?.schema;
    if (!schema) return;
    if (!contentType?.startsWith('application/json')) {
      this.violations.push(`${where}: documented as application/json, got ${contentType}`);
      return;
    }
    const key = `${path} ${method} ${status}`;
    let validate = this.cache.get(key);
    if (!validate) {
      // Resolve the document's local $refs against the registered components.
      validate = this.ajv.compile(toJsonSchema(JSON.parse(JSON.stringify(schema).replace(/"#\/components\//g, '"openapi#/components/'))) as object);
      this.cache.set(key, validate);
    }
    if (!validate(body)) {
      this.violations.push(`${where}: ${this.ajv.errorsText(validate.errors)} in ${JSON.stringify(body).slice(0, 200)}`);
    }
  }
}
