import { Injectable, Logger, NestMiddleware, OnApplicationShutdown } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { randomUUID } from 'node:crypto';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { loggedPath } from '../room/room-paths';

const CLIENT_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Node's own notice that a response of this process has been sent (the moment its 'finish' event
 * fires), one channel for every server: a built-in diagnostics channel, which Node documents as
 * experimental while the diagnostics_channel API itself is stable.
 */
const RESPONSE_FINISHED = 'http.server.response.finish';

interface ResponseFinished {
  request: IncomingMessage;
  response: ServerResponse;
}

/**
 * Gives every request an id (the client's X-Request-Id when it is sane, else a new UUID),
 * echoes it, and writes one structured log line when the response is finished.
 * The line carries no linkID (see loggedPath), no header and no body.
 *
 * The line is written from Node's response-finished channel rather than from a 'finish' listener
 * added to every response: a listener and its closure per request cost more than the line itself.
 * The channel speaks for every server in the process, so only requests this instance started are
 * logged here (several apps may share a process, as in the tests).
 */
@Injectable()
export class RequestContextMiddleware implements NestMiddleware, OnApplicationShutdown {
  private readonly logger = new Logger('HTTP');
  /** When each request of this app started (performance.now()). */
  private readonly started = new WeakMap<IncomingMessage, number>();
  private readonly onFinished = (message: unknown): void => {
    const { request, response } = message as ResponseFinished;
    const started = this.started.get(request);
    if (started === undefined) return;
    const req = request as Request;
    this.logger.log({
      msg: 'request',
      requestId: req.id,
      method: req.method,
      path: loggedPath(req.originalUrl ?? req.url),
      status: response.statusCode,
      durationMs: Math.round((performance.now() - started) * 100) / 100,
    });
  };

  constructor() {
    subscribe(RESPONSE_FINISHED, this.onFinished);
  }

  use(req: Request, res: Response, next: NextFunction): void {
    const given = req.headers['x-request-id'];
    req.id = typeof given === 'string' && CLIENT_ID.test(given) ? given : randomUUID();
    res.setHeader('X-Request-Id', req.id);
    this.started.set(req, performance.now());
    next();
  }

  /** After the HTTP server has closed, so that requests finished while it drained are still logged. */
  onApplicationShutdown(): void {
    unsubscribe(RESPONSE_FINISHED, this.onFinished);
  }
}
