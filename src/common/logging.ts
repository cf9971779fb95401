import type { LoggerService } from '@nestjs/common';
import type { Request } from 'express';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import type { Params } from 'nestjs-pino';
import pino from 'pino';
import type { AppConfig } from '../config/app-config';

/** A client's X-Request-Id is kept when it is sane; anything else gets a new id. */
const CLIENT_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The request's id: the client's X-Request-Id when it is sane, else a new UUID; echoed in the response. */
export function requestIdOf(req: IncomingMessage, res: ServerResponse): string {
  const given = req.headers['x-request-id'];
  const id = typeof given === 'string' && CLIENT_ID.test(given) ? given : randomUUID();
  res.setHeader('X-Request-Id', id);
  return id;
}

/**
 * The route template of the handler a request reached (`/i/:linkID/session`), as logs, metrics and
 * traces name it: never the path itself, which may carry a secret (a linkID). A request refused before
 * it reached a handler (a rate limit, a body too large) or that no route matched is `(no route)`;
 * Express also names the route of path-mounted middleware (`v1/*path`), which is no handler's.
 */
export function routeOf(req: IncomingMessage): string {
  const path = ((req as Request).route as { path?: unknown } | undefined)?.path;
  return typeof path === 'string' && !path.includes('*') ? path : NO_ROUTE;
}

export const NO_ROUTE = '(no route)';

/** What a request line says of the request: its id and method; never headers, the path or the query. */
function requestFields(req: IncomingMessage): { id: unknown; method: string | undefined } {
  return { id: (req as IncomingMessage & { id?: unknown }).id, method: req.method };
}

/**
 * nestjs-pino's configuration: one JSON line per event on stdout, written asynchronously (pino's
 * sonic-boom destination, flushed at exit), or readable lines on a terminal (pino-pretty, in a worker
 * thread). pino-http logs one line per request when it is answered: its id, method, route template,
 * status and time; never headers, bodies, the path or the query string.
 */
export function loggerParams(config: Pick<AppConfig, 'logLevel' | 'logFormat'>): Params {
  const pretty = config.logFormat === 'pretty' || (config.logFormat === 'auto' && process.stdout.isTTY === true);
  const options = {
    level: config.logLevel,
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label: string) => ({ level: label }) },
    genReqId: requestIdOf,
    // One child logger per request, bound to the request under `requestId` (its serializer below writes
    // the id alone): lines written during the request carry the id, not the whole request. pino-http's
    // quietReqLogger gives the same lines through two children (one with the id, then one with the
    // request), and a child costs about as much as writing the line (bench/README.md).
    customAttributeKeys: { req: 'requestId' },
    // The serializers read the fields they need from Node's own objects: pino-http's default
    // wrapping first copies every field of the request and the response into new objects.
    wrapSerializers: false,
    serializers: {
      requestId: (req: { id: string }) => req.id,
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
    customLogLevel: (_req: IncomingMessage, res: ServerResponse, error?: Error) => (error || res.statusCode >= 500 ? 'error' : 'info'),
    customSuccessMessage: () => 'request',
    customErrorMessage: () => 'request',
    // The request's id and method, then the answer; the route is known only once the request has been
    // routed, so it is added when the line is written.
    customSuccessObject: (req: IncomingMessage, _res: ServerResponse, line: object) => ({ req: requestFields(req), ...line, route: routeOf(req) }),
    customErrorObject: (req: IncomingMessage, _res: ServerResponse, _error: Error, line: object) => ({ req: requestFields(req), ...line, route: routeOf(req) }),
    ...(pretty
      ? {
          transport: {
            target: 'pino-pretty',
            options: {
              colorize: process.stdout.isTTY === true,
              translateTime: 'SYS:HH:MM:ss.l',
              ignore: 'pid,hostname,context,req,res,route,responseTime,requestId',
              messageFormat: '{if context}{context} {end}{msg}{if req} {req.method} {route} {res.statusCode} {responseTime} ms req={req.id}{end}',
            },
          },
        }
      : {}),
  };
  return { pinoHttp: pretty ? options : [options, stdoutDestination()] };
}

/** The asynchronous destinations writing JSON lines to standard output, for flushLogsWithin. */
const destinations = new Set<ReturnType<typeof pino.destination>>();
/** Until when a synchronous flush keeps retrying a full pipe; null: as long as it takes (sonic-boom's default). */
let flushDeadline: number | null = null;

/**
 * Lines are written to standard output in batches of at least this many bytes (about a dozen request
 * lines), or every LOG_FLUSH_MS when fewer came: pino's asynchronous logging. Writing each line as it
 * came cost a write call handed to libuv's thread pool per request; batched, products/getOne took 3–11%
 * less CPU per request one at a time, and under load the difference was inside the noise
 * (bench/README.md).
 */
const LOG_BATCH_BYTES = 4096;
/** The longest a line waits in the batch: logs stay live for someone tailing them. */
const LOG_FLUSH_MS = 100;

/**
 * Standard output, written asynchronously (sonic-boom) in batches (LOG_BATCH_BYTES). A write that finds
 * the pipe full is retried; once a deadline for the final flush is set (flushLogsWithin), no longer than
 * that: pino flushes synchronously at exit, and a reader that stopped reading (a parent that went away
 * without closing the pipe) kept the process in that loop for ever, with every later signal ignored.
 */
function stdoutDestination(): ReturnType<typeof pino.destination> {
  const destination = pino.destination({
    dest: 1,
    sync: false,
    minLength: LOG_BATCH_BYTES,
    periodicFlush: LOG_FLUSH_MS,
    retryEAGAIN: () => flushDeadline === null || Date.now() < flushDeadline,
  });
  destinations.add(destination);
  destination.on('close', () => destinations.delete(destination));
  return destination;
}

/**
 * Writes what the logs still hold, trying for at most `ms`, just before the process exits; what cannot
 * be written by then is dropped. False when something was dropped.
 */
export function flushLogsWithin(ms: number): boolean {
  flushDeadline = Date.now() + ms;
  let complete = true;
  for (const destination of destinations) {
    try {
      destination.flushSync();
    } catch {
      complete = false;
      // Destroyed, pino's own flush at exit passes it over instead of trying again.
      destination.destroy();
    }
  }
  return complete;
}

/** Nest's own start-up chatter: one line per module and per route, kept for debug. */
const STARTUP_CONTEXTS = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer']);

/**
 * The application's logger, with Nest's start-up lines (a module initialised, a controller's routes, a
 * route mapped: about 80 of them) at debug, and one info line instead that counts them when the
 * application has started. A service started without a terminal then begins its log with what an
 * operator reads, not with a page of wiring.
 */
export class StartupSummaryLogger implements LoggerService {
  private modules = 0;
  private routes = 0;

  constructor(private readonly logger: LoggerService) {}

  log(message: unknown, ...params: unknown[]): void {
    const context = params[params.length - 1];
    if (typeof context === 'string' && STARTUP_CONTEXTS.has(context)) {
      if (context === 'InstanceLoader') this.modules++;
      if (context === 'RouterExplorer') this.routes++;
      this.logger.debug?.(message, ...params);
      return;
    }
    if (context === 'NestApplication' && message === 'Nest application successfully started') {
      this.logger.log({ msg: 'application started', modules: this.modules, routes: this.routes }, context);
      return;
    }
    this.logger.log(message, ...params);
  }

  error(message: unknown, ...params: unknown[]): void {
    this.logger.error(message, ...params);
  }

  warn(message: unknown, ...params: unknown[]): void {
    this.logger.warn(message, ...params);
  }

  debug(message: unknown, ...params: unknown[]): void {
    this.logger.debug?.(message, ...params);
  }

  verbose(message: unknown, ...params: unknown[]): void {
    this.logger.verbose?.(message, ...params);
  }

  fatal(message: unknown, ...params: unknown[]): void {
    (this.logger.fatal ?? this.logger.error).call(this.logger, message, ...params);
  }
}
