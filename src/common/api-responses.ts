import { Type, applyDecorators } from '@nestjs/common';
import { ApiExtraModels, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import { ErrorResponseDto } from './error-response.dto';
import { LIST_MAX_ROWS } from './limits';

const ERROR_TEXT: Record<number, string> = {
  400: 'Bad input: malformed JSON, wrong types, unknown or missing fields, values out of bounds, repeated query keys',
  401: 'Missing, malformed, unknown or revoked token (with WWW-Authenticate: Bearer)',
  403: 'The write would leave the record outside the caller\'s scope',
  404: 'No such record, or not visible to the caller',
  409: 'Conflicts with stored state',
  413: 'Request body too large',
  415: 'Content-Type is not application/json',
  429: 'Rate limit exceeded (see Retry-After)',
  500: 'Unexpected error; the message never carries internals (the log has them, with the request id)',
  503: 'Database unavailable; retry later (see Retry-After)',
};

/** The `{result: ...}` success schema, for a model, an array of models, or an inline schema. */
export function ApiResult(
  model: Type<unknown> | Record<string, unknown>,
  options: { status?: number; isArray?: boolean; maxItems?: number; paged?: boolean; description: string },
): MethodDecorator & ClassDecorator {
  const isClass = typeof model === 'function';
  const item = isClass ? { $ref: getSchemaPath(model as Type<unknown>) } : model;
  const result = options.isArray ? { type: 'array', items: item, maxItems: options.maxItems ?? LIST_MAX_ROWS } : item;
  return applyDecorators(
    ...(isClass ? [ApiExtraModels(model as Type<unknown>)] : []),
    ApiResponse({
      status: options.status ?? 200,
      description: options.description,
      schema: { type: 'object', required: ['result'], properties: { result: result as object } },
      ...(options.paged
        ? {
            headers: {
              Link: {
                description: 'With `limit`, present when more rows remain: the next page\'s URL, `<...&cursor=...>; rel="next"`.',
                schema: { type: 'string', maxLength: 4096, example: '</v1/products/getList?orgID=org_acme&limit=100&cursor=WyIyMDI2...>; rel="next"' },
              },
            },
          }
        : {}),
    }),
  );
}

/** An error a route can answer, with the message its example shows when the default below does not fit the route. */
export interface ErrorCase {
  status: number;
  message: string;
}

/** What each status's example says, unless the route gives its own (404, 403 and 409 usually do). */
const DEFAULT_MESSAGES: Record<number, string> = {
  400: 'unknown field "nmae" is not allowed',
  401: 'missing Authorization header: send "Authorization: Bearer <token>"',
  403: 'the record would not be visible to this token afterwards; a token may only write within its own organization or user',
  404: 'record "019a8f7e-1c2b-7d3e-9f40-2b6c8d9e0a1b" not found',
  409: 'conflicts with a stored record',
  413: 'request body is too large',
  415: 'Content-Type must be application/json',
  422: 'this Idempotency-Key was already used with different parameters',
  429: 'rate limit of 600 requests per 60 s exceeded; retry after 12 s',
  500: 'internal server error',
  503: 'database unavailable, try again shortly',
};

/** A route's own example for one status: `ApiErrors(400, errorCase(404, 'product "…" not found'))`. */
export function errorCase(status: number, message: string): ErrorCase {
  return { status, message };
}

/** The error statuses a route can answer, each with the `{error, message}` schema and an example (and 401 for the bearer token). */
export function ApiErrors(...cases: (number | ErrorCase)[]): MethodDecorator & ClassDecorator {
  return errorResponses([...cases, 401]);
}

/** The same for a route that needs no token (the interview room): no 401. */
export function ApiPublicErrors(...cases: (number | ErrorCase)[]): MethodDecorator & ClassDecorator {
  return errorResponses(cases);
}

function errorResponses(cases: (number | ErrorCase)[]): MethodDecorator & ClassDecorator {
  const messages = new Map<number, string>();
  for (const c of [...cases, 429, 500, 503]) {
    const { status, message } = typeof c === 'number' ? { status: c, message: DEFAULT_MESSAGES[c] ?? 'error' } : c;
    if (typeof c !== 'number' || !messages.has(status)) messages.set(status, message);
  }
  return applyDecorators(
    ApiExtraModels(ErrorResponseDto),
    ...[...messages].sort(([a], [b]) => a - b).map(([status, message]) =>
      ApiResponse({
        status,
        description: ERROR_TEXT[status] ?? 'Error',
        type: ErrorResponseDto,
        example: { error: status, message },
      }),
    ),
  );
}
