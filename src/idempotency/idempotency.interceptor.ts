import { CallHandler, ExecutionContext, Injectable, NestInterceptor, UseInterceptors, applyDecorators } from '@nestjs/common';
import { ApiHeader, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Observable, catchError, from, mergeMap, of, throwError } from 'rxjs';
import { ErrorResponseDto } from '../common/error-response.dto';
import { IDEMPOTENCY_KEY_MAX } from './idempotency-record.entity';
import { IdempotencyService } from './idempotency.service';

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';

/**
 * Honours `Idempotency-Key`: the same key from the same token with the same parameters within
 * 24 h replays the first success without running the handler again; different parameters get 422;
 * a first request still running gets 409. Failed first requests release the key.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(private readonly idempotency: IdempotencyService) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const http = context.switchToHttp();
    const req = http.getRequest<Request>();
    const res = http.getResponse<Response>();
    const header = req.headers['idempotency-key'];
    if (header === undefined || !req.principal) return next.handle();
    const key = Array.isArray(header) ? header.join(',') : header;
    this.idempotency.validateKey(key);
    const tokenId = req.principal.tokenId;
    const route = `${req.method} ${req.route?.path ?? req.path}`;
    const hash = this.idempotency.requestHash(route, req.method === 'GET' ? req.query : req.body);

    return from(this.idempotency.claim(tokenId, key, hash)).pipe(
      mergeMap((claim) => {
        if (claim.kind === 'replay') {
          res.setHeader('Idempotent-Replayed', 'true');
          return of(claim.body);
        }
        return next.handle().pipe(
          mergeMap((body) => from(this.idempotency.complete(tokenId, key, res.statusCode, body).then(() => body))),
          catchError((error: unknown) => from(this.idempotency.release(tokenId, key).catch(() => undefined)).pipe(mergeMap(() => throwError(() => error)))),
        );
      }),
    );
  }
}

/** Marks a route as accepting Idempotency-Key, and documents it. */
export function Idempotent(): MethodDecorator {
  return applyDecorators(
    UseInterceptors(IdempotencyInterceptor),
    ApiHeader({
      name: IDEMPOTENCY_HEADER,
      required: false,
      description:
        `Up to ${IDEMPOTENCY_KEY_MAX} printable ASCII characters. The same key from the same token with the same parameters within 24 h replays the first success ` +
        '(same status and body, header Idempotent-Replayed: true) and creates nothing. Different parameters: 422. First request still running: 409.',
      schema: { type: 'string', maxLength: IDEMPOTENCY_KEY_MAX },
    }),
    ApiResponse({ status: 409, description: 'A request with this Idempotency-Key is still in progress', schema: { $ref: getSchemaPath(ErrorResponseDto) } }),
    ApiResponse({ status: 422, description: 'The Idempotency-Key was used with different parameters', schema: { $ref: getSchemaPath(ErrorResponseDto) } }),
  );
}
