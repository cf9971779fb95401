import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ROOM_CSP, renderRoomError } from '../room/room-page';
import { isRoomPage } from '../room/room-paths';
import { isDatabaseUnavailable, isDuplicateKey } from './database-errors';

export interface ErrorBody {
  error: number;
  message: string;
}

/** body-parser's error types, mapped to the contract's statuses and messages. */
const BODY_PARSER_ERRORS: Record<string, [number, string]> = {
  'entity.parse.failed': [400, 'request body is not valid JSON'],
  'entity.too.large': [413, 'request body is too large'],
  'entity.verify.failed': [400, 'request body is not valid JSON'],
  'encoding.unsupported': [415, 'unsupported content encoding'],
  'charset.unsupported': [415, 'unsupported charset: send application/json in UTF-8'],
  'request.aborted': [400, 'request was aborted'],
  'request.size.invalid': [400, 'request body size did not match Content-Length'],
};

/**
 * Every error leaves as {error, message}, with error equal to the HTTP status.
 * Unexpected errors are logged with the request id and answered with a generic 500;
 * SQL and driver text never reach the client.
 */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('ExceptionFilter');

  catch(exception: unknown, host: ArgumentsHost): void {
    const ctx = host.switchToHttp();
    const res = ctx.getResponse<Response>();
    const req = ctx.getRequest<Request>();
    const { status, body, headers } = this.toResponse(exception, req);
    if (res.headersSent) return;
    for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
    // The room's page is read by a person's browser: its errors come as a page too.
    if (req.method === 'GET' && isRoomPage(req.originalUrl)) {
      res.setHeader('Content-Security-Policy', ROOM_CSP);
      res.status(status).type('html').send(renderRoomError(status, body.message));
      return;
    }
    res.status(status).json(body);
  }

  toResponse(exception: unknown, req?: Request): { status: number; body: ErrorBody; headers: Record<string, string> } {
    const headers: Record<string, string> = {};
    let status: number;
    let message: string;

    if (exception instanceof HttpException) {
      status = exception.getStatus();
      message = messageOf(exception.getResponse(), exception.message);
    } else if (isBodyParserError(exception)) {
      [status, message] = BODY_PARSER_ERRORS[exception.type];
    } else if (isDatabaseUnavailable(exception)) {
      status = HttpStatus.SERVICE_UNAVAILABLE;
      message = 'database unavailable, try again shortly';
      this.logger.warn({ msg: 'database unavailable', requestId: req?.id, error: String((exception as Error)?.message ?? exception) });
    } else if (isDuplicateKey(exception)) {
      status = HttpStatus.CONFLICT;
      message = 'conflicts with a stored record';
    } else {
      status = HttpStatus.INTERNAL_SERVER_ERROR;
      message = 'internal server error';
      const err = exception instanceof Error ? exception : new Error(String(exception));
      this.logger.error({ msg: 'unhandled error', requestId: req?.id, error: err.message, stack: err.stack });
    }

    if (status === HttpStatus.UNAUTHORIZED) headers['WWW-Authenticate'] = 'Bearer';
    if (status === HttpStatus.SERVICE_UNAVAILABLE) headers['Retry-After'] = '5';
    // Bounded as the OpenAPI schema says (a long list of validation errors could run on).
    if (message.length > 1000) message = `${message.slice(0, 997)}...`;
    return { status, body: { error: status, message }, headers };
  }
}

function isBodyParserError(e: unknown): e is { type: string } {
  return !!e && typeof e === 'object' && typeof (e as { type?: unknown }).type === 'string' && Object.hasOwn(BODY_PARSER_ERRORS, (e as { type: string }).type);
}

function messageOf(response: string | object, fallback: string): string {
  if (typeof response === 'string') return response;
  const m = (response as { message?: unknown }).message;
  if (Array.isArray(m)) return m.join('; ');
  if (typeof m === 'string') return m;
  return fallback;
}
