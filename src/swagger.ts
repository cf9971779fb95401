import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import type { ReferenceObject, SchemaObject } from '@nestjs/swagger';
import { IDEMPOTENCY_HEADER } from './idempotency/idempotent.decorator';
import { CreateProductDto } from './products/dto/create-product.dto';
import { CreateWebhookDto } from './webhooks/dto/webhook-input.dto';
import { RETRY_JITTER, RETRY_SCHEDULE_SECONDS, WEBHOOK_EVENTS } from './webhooks/webhooks.limits';
import { PersonDto } from './participants/dto/participant-input.dto';

const DESCRIPTION = `
JSON API for products under study, interviews about them, invite links with their transcripts, and interviewee profiles.

**Authentication.** Every \`/v1\` route needs \`Authorization: Bearer irs_...\`. Tokens are made with \`npm run token -- create\`.
An admin token sees everything; a scoped token sees products whose \`orgID\` or \`userID\` equals its own, and the interviews,
invites and profiles of those products. Records a token cannot see answer 404 and never appear in lists. A write that would
leave a record outside the caller's scope is 403.

**Envelope.** Success: \`{"result": ...}\`, 201 for addOne, 200 otherwise. Error: \`{"error": <HTTP status>, "message": "..."}\`.
Every response carries \`X-Request-Id\`, \`RateLimit-Limit\`, \`RateLimit-Remaining\` and \`RateLimit-Reset\` (the limit counts per token).

**Input.** Unknown fields and query keys are refused (400), as are repeated query keys, NUL characters and unpaired surrogates.
POST bodies must be JSON objects with \`Content-Type: application/json\` (415 otherwise). \`null\` clears an optional field.

**Lists** need at least one filter, combine filters with AND, and are ordered by creation time, oldest first, ties by identifier.

**Times** are ISO-8601 UTC with milliseconds. Identifiers are server-generated UUIDv7 strings; linkIDs are 192-bit random secrets.

**Webhooks.** An endpoint registered with \`/v1/webhooks/addOne\` receives a signed POST (Standard Webhooks: \`webhook-id\`, \`webhook-timestamp\`,
\`webhook-signature\`) of \`{type, timestamp, data}\` for the records its owner can see, on these events: ${WEBHOOK_EVENTS.map((e) => `\`${e}\``).join(', ')}.
At least once: dedupe on \`webhook-id\`, the same on every attempt. A 2xx within 10 s is delivered; otherwise retried after
${listed(RETRY_SCHEDULE_SECONDS.map(duration))} (±${RETRY_JITTER * 100}%), then failed; redirects are not followed; 410 disables the endpoint. https only, to public addresses.
`.trim();

/** 5 → "5 s", 300 → "5 min", 7200 → "2 h". */
function duration(seconds: number): string {
  if (seconds % 3600 === 0) return `${seconds / 3600} h`;
  if (seconds % 60 === 0) return `${seconds / 60} min`;
  return `${seconds} s`;
}

/** "a, b and c". */
function listed(items: readonly string[]): string {
  return items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Interview Research Service')
    .setDescription(DESCRIPTION)
    .setVersion('1.0.0')
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'irs_ opaque token', description: 'A token from `npm run token -- create`' })
    .addSecurityRequirements('bearer')
    .addTag('products', 'Products under study')
    .addTag('interviews', 'Interviews about a product')
    .addTag('interviewers', 'The interviewer agents an interview can use')
    .addTag('languages', 'The languages the interview room and the built-in interviewer speak')
    .addTag('invites', 'Invite links and their transcripts (read-only, except createInvites)')
    .addTag('profiles', 'Interviewee profiles (read-only)')
    .addTag('participants', "Interviewees' data rights: erasure (with its audit) and export of one person's data")
    .addTag('webhooks', `Signed events (Standard Webhooks): ${WEBHOOK_EVENTS.join(', ')}`)
    .addTag('interview room', 'For interviewees, no token: the JSON behind the page at each invite URL (/i/{linkID}), for teams that build their own front end')
    .addTag('health', 'Liveness and database reachability')
    .build();
  const document = SwaggerModule.createDocument(app, config);
  declareCommonHeaders(document);
  describeRequestBodies(document);
  // Either owner will do; OpenAPI can say so, so that generated clients and validators know it too.
  for (const owned of [CreateProductDto, CreateWebhookDto]) {
    const schema = document.components?.schemas?.[owned.name] as SchemaObject | undefined;
    if (schema) schema.anyOf = [{ required: ['orgID'] }, { required: ['userID'] }];
  }
  // A person's data is erased or exported within exactly one owner.
  const person = document.components?.schemas?.[PersonDto.name] as SchemaObject | undefined;
  if (person) person.oneOf = [{ required: ['orgID'] }, { required: ['userID'] }];
  // Health and the interview room (the linkID is the credential) need no token.
  for (const [path, item] of Object.entries(document.paths)) {
    if (path !== '/health' && !path.startsWith('/i/')) continue;
    for (const operation of Object.values(item)) {
      if (operation && typeof operation === 'object' && 'responses' in operation) operation.security = [];
    }
  }
  return document;
}

const header = (description: string, schema: Record<string, unknown>) => ({ description, schema });

/** Headers the middleware puts on every response, declared once for every documented response. */
const COMMON_HEADERS = {
  'X-Request-Id': header('The request id: yours when you sent a sane one, else generated. Quote it when reporting a problem.', { type: 'string', maxLength: 128 }),
  'RateLimit-Limit': header('Requests allowed per token per window.', { type: 'integer', format: 'int32', minimum: 1, maximum: 1_000_000 }),
  'RateLimit-Remaining': header('Requests left in the current window.', { type: 'integer', format: 'int32', minimum: 0, maximum: 1_000_000 }),
  'RateLimit-Reset': header('Seconds until the window resets.', { type: 'integer', format: 'int32', minimum: 0, maximum: 86_400 }),
  'Access-Control-Allow-Origin': header('Only when CORS_ORIGINS is configured and allows the request\'s Origin; CORS is off by default.', { type: 'string', maxLength: 2048 }),
};
const RETRY_AFTER = header('Seconds to wait before retrying.', { type: 'integer', format: 'int32', minimum: 1, maximum: 86_400 });
const WWW_AUTHENTICATE = header('Always `Bearer`: the scheme this API takes.', { type: 'string', enum: ['Bearer'] });
const IDEMPOTENT_REPLAYED = header('`true` when this is the stored answer to an earlier request with the same Idempotency-Key.', {
  type: 'string',
  enum: ['true'],
});

interface Operation {
  responses: Record<string, { headers?: Record<string, unknown> }>;
  parameters?: { name: string; in: string }[];
  requestBody?: { content: Record<string, { schema?: SchemaObject | ReferenceObject }> };
}

function operations(document: OpenAPIObject): Operation[] {
  return Object.values(document.paths).flatMap((item) =>
    Object.values(item).filter((op): op is Operation => !!op && typeof op === 'object' && 'responses' in op),
  );
}

function declareCommonHeaders(document: OpenAPIObject): void {
  for (const operation of operations(document)) {
    const idempotent = operation.parameters?.some((p) => p.in === 'header' && p.name === IDEMPOTENCY_HEADER) ?? false;
    for (const [status, response] of Object.entries(operation.responses)) {
      response.headers = {
        ...COMMON_HEADERS,
        ...(status === '429' || status === '503' ? { 'Retry-After': RETRY_AFTER } : {}),
        ...(status === '401' ? { 'WWW-Authenticate': WWW_AUTHENTICATE } : {}),
        ...(idempotent && status.startsWith('2') ? { 'Idempotent-Replayed': IDEMPOTENT_REPLAYED } : {}),
        ...response.headers,
      };
    }
  }
}

/**
 * Request bodies as the service reads them. Each is refused with 400 when it carries a field its schema
 * does not list: say so. And a default is stated in words, not as `default`: generators such as
 * openapi-typescript make a property with a default required in a schema referenced by $ref (they cannot
 * tell a request's schema from a response's), so every typed client would have to send it.
 */
function describeRequestBodies(document: OpenAPIObject): void {
  const schemas = document.components?.schemas ?? {};
  const seen = new Set<string>();
  const visit = (node: SchemaObject | ReferenceObject | undefined, top: boolean): void => {
    if (!node) return;
    if ('$ref' in node) {
      const name = node.$ref.replace('#/components/schemas/', '');
      const schema = schemas[name] as SchemaObject | undefined;
      if (schema && top) schema.additionalProperties = false;
      if (seen.has(name)) return;
      seen.add(name);
      visit(schema, false);
      return;
    }
    for (const property of Object.values(node.properties ?? {})) {
      if (!('$ref' in property) && property.default !== undefined) {
        const stated = `Default: \`${JSON.stringify(property.default)}\`.`;
        property.description = property.description ? `${property.description} ${stated}` : stated;
        delete property.default;
      }
      visit(property, false);
    }
    for (const part of [...(node.allOf ?? []), ...(node.anyOf ?? []), ...(node.oneOf ?? [])]) visit(part, false);
    if (node.items) visit(node.items, false);
  };
  for (const operation of operations(document)) {
    for (const media of Object.values(operation.requestBody?.content ?? {})) visit(media.schema, true);
  }
}

/** Swagger UI at /docs and the document at /docs-json, the same in tests and production. */
export function setupSwagger(app: INestApplication): OpenAPIObject {
  const document = buildOpenApiDocument(app);
  SwaggerModule.setup('docs', app, document, {
    jsonDocumentUrl: 'docs-json',
    yamlDocumentUrl: 'docs-yaml',
    swaggerOptions: { persistAuthorization: true },
  });
  return document;
}
