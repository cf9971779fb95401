import { ExecutionContext, applyDecorators, createParamDecorator } from '@nestjs/common';
import { HTTP_CODE_METADATA } from '@nestjs/common/constants';
import { ApiHeader, ApiResponse } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { ErrorResponseDto } from '../common/error-response.dto';
import { IDEMPOTENCY_KEY_MAX } from './idempotency-record.entity';
import { IdempotentCall, idempotencyRequestHash, validateIdempotencyKey } from './idempotency.service';

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';

/**
 * The request's `Idempotency-Key`, as IdempotencyService.run takes it: undefined without the header
 * (or without a token), else the key checked, its token, and the hash of the route and parameters.
 *
 * A parameter handed to IdempotencyService.run, which claims the key, replays a stored answer or
 * releases the key around the handler's own work: the route stays an ordinary handler.
 */
export const IdempotencyKey = createParamDecorator((_data: unknown, ctx: ExecutionContext): IdempotentCall | undefined => {
  const req = ctx.switchToHttp().getRequest<Request>();
  const header = req.headers['idempotency-key'];
  if (header === undefined || !req.principal) return undefined;
  const key = Array.isArray(header) ? header.join(',') : header;
  validateIdempotencyKey(key);
  const res = ctx.switchToHttp().getResponse<Response>();
  const route = `${req.method} ${(req.route as { path?: string } | undefined)?.path ?? req.path}`;
  return {
    tokenId: req.principal.tokenId,
    key,
    requestHash: idempotencyRequestHash(route, req.method === 'GET' ? req.query : req.body),
    status: (Reflect.getMetadata(HTTP_CODE_METADATA, ctx.getHandler()) as number | undefined) ?? (req.method === 'POST' ? 201 : 200),
    markReplayed: () => res.setHeader('Idempotent-Replayed', 'true'),
  };
});

/** Documents a route as accepting Idempotency-Key; its handler passes @IdempotencyKey() to IdempotencyService.run. */
export function Idempotent(): MethodDecorator {
  return applyDecorators(
    ApiHeader({
      name: IDEMPOTENCY_HEADER,
      required: false,
      description:
        `Up to ${IDEMPOTENCY_KEY_MAX} printable ASCII characters. The same key from the same token with the same parameters within 24 h replays the first success ` +
        '(same status and body, header Idempotent-Replayed: true) and creates nothing. Different parameters: 422. First request still running: 409.',
      schema: { type: 'string', maxLength: IDEMPOTENCY_KEY_MAX },
    }),
    ApiResponse({
      status: 409,
      description: 'A request with this Idempotency-Key is still in progress',
      type: ErrorResponseDto,
      example: { error: 409, message: 'a request with this Idempotency-Key is still in progress; retry later' },
    }),
    ApiResponse({
      status: 422,
      description: 'The Idempotency-Key was used with different parameters',
      type: ErrorResponseDto,
      example: { error: 422, message: 'this Idempotency-Key was already used with different parameters' },
    }),
  );
}
