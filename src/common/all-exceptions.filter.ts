import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { isDatabaseUnavailable, isDuplicateKey } from '../database/database-errors';

export interface ErrorBody {
  error: number;
  message: string;
}

export interface ErrorResponse {
  status: number;
  body: ErrorBody;
  headers: Record<string, string>;
}

/** Longest message sent, as the OpenAPI schema says (a long list of validation errors could run on). */
const MESSAGE_MAX = 1000;

/**
 * What the client is told about an exception, the one mapping of errors to statuses (the global filter
 * writes it as JSON, the interview room's page filter as a page): HttpExceptions as they are, a
 * database that cannot be reached 503 with Retry-After, a duplicate key 409, anything else a generic
 * 500 whose details (and SQL, and driver text) only reach the log, with the request id.
 */
export function errorResponseOf(exception: unknown, logger: Logger, req?: Request): ErrorResponse {
  const headers: Record<string, string> = {};
  let status: number;
  let message: string;
  if (exception instanceof HttpException) {
    status = exception.getStatus();
    message = messageOf(exception.getResponse(), exception.message);
  } else if (isDatabaseUnavailable(exception)) {
    status = HttpStatus.SERVICE_UNAVAILABLE;
    message = 'database unavailable, try again shortly';
    logger.warn({ msg: 'database unavailable', requestId: req?.id, error: String((exception as Error)?.message ?? exception) });
  } else if (isDuplicateKey(exception)) {
    status = HttpStatus.CONFLICT;
    message = 'conflicts with a stored record';
  } else {
    status = HttpStatus.INTERNAL_SERVER_ERROR;
    message = 'internal server error';
    const err = exception instanceof Error ? exception : new Error(String(exception));
    logger.error({ msg: 'unhandled error', requestId: req?.id, error: err.message, stack: err.stack });
  }
  if (status === HttpStatus.UNAUTHORIZED) headers['WWW-Authenticate'] = 'Bearer';
  if (status === HttpStatus.SERVICE_UNAVAILABLE) headers['Retry-After'] = '5';
  if (message.length > MESSAGE_MAX) message = `${message.slice(0, MESSAGE_MAX - 3)}...`;
  return { status, body: { error: status, message }, headers };
}

function messageOf(response: string | object, fallback: string): string {
  if (typeof response === 'string') return response;
  const m = (response as { message?: unknown }).message;
  if (Array.isArray(m)) return m.join('; ');
  if (typeof m === 'string') return m;
  return fallback;
}

/** Every error leaves as {error, message}, with error equal to the HTTP status (APP_FILTER). */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('ExceptionFilter');

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const res = http.getResponse<Response>();
    const { status, body, headers } = errorResponseOf(exception, this.logger, http.getRequest<Request>());
    if (res.headersSent) {
      // A stream that failed half-way: the status has gone; cut the connection so that the client sees it.
      res.destroy();
      return;
    }
    for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
    res.status(status).json(body);
  }
}
