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

/** The error statuses a route can answer, each with the `{error, message}` schema (and 401 for the bearer token). */
export function ApiErrors(...statuses: number[]): MethodDecorator & ClassDecorator {
  return errorResponses([...statuses, 401]);
}

/** The same for a route that needs no token (the interview room): no 401. */
export function ApiPublicErrors(...statuses: number[]): MethodDecorator & ClassDecorator {
  return errorResponses(statuses);
}

function errorResponses(statuses: number[]): MethodDecorator & ClassDecorator {
  const all = [...new Set([...statuses, 429, 500, 503])].sort();
  return applyDecorators(
    ApiExtraModels(ErrorResponseDto),
    ...all.map((status) =>
      ApiResponse({
        status,
        description: ERROR_TEXT[status] ?? 'Error',
        schema: { $ref: getSchemaPath(ErrorResponseDto) },
      }),
    ),
  );
}
