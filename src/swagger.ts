import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';

const DESCRIPTION = `
JSON API for products under study, interviews about them, invite links with their transcripts, and interviewee profiles.

**Authentication.** Every \`/v1\` route needs \`Authorization: Bearer irs_...\`. Tokens are made with \`npm run token -- create\`.
An admin token sees everything; a scoped token sees products whose \`orgID\` or \`userID\` equals its own, and the interviews,
invites and profiles of those products. Records a token cannot see answer 404 and never appear in lists. A write that would
leave a record outside the caller's scope is 403.

**Envelope.** Success: \`{"result": ...}\`, 201 for addOne, 200 otherwise. Error: \`{"error": <HTTP status>, "message": "..."}\`.
Every response carries \`X-Request-Id\`; authenticated ones carry \`RateLimit-Limit\`, \`RateLimit-Remaining\`, \`RateLimit-Reset\`.

**Input.** Unknown fields and query keys are refused (400), as are repeated query keys, NUL characters and unpaired surrogates.
POST bodies must be JSON objects with \`Content-Type: application/json\` (415 otherwise). \`null\` clears an optional field.

**Lists** need at least one filter, combine filters with AND, and are ordered by creation time, oldest first, ties by identifier.

**Times** are ISO-8601 UTC with milliseconds. Identifiers are server-generated UUIDv7 strings; linkIDs are 192-bit random secrets.
`.trim();

export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Interview Research Service')
    .setDescription(DESCRIPTION)
    .setVersion('1.0.0')
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'irs_ opaque token', description: 'A token from `npm run token -- create`' })
    .addSecurityRequirements('bearer')
    .build();
  const document = SwaggerModule.createDocument(app, config);
  // Health needs no token: override the global bearer requirement there.
  for (const operation of Object.values(document.paths['/health'] ?? {})) {
    if (operation && typeof operation === 'object' && 'responses' in operation) operation.security = [];
  }
  return document;
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
