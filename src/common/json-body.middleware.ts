import { BadRequestException, Injectable, NestMiddleware, UnsupportedMediaTypeException } from '@nestjs/common';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { json } from 'express';
import { AppConfig } from '../config/app-config';
import { roomLinkOf } from '../room/room-paths';
import { ROOM_LIMITS } from '../room/room.limits';

const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
/** No request of this API nests deeper; deeper bodies would only exhaust the stack downstream. */
export const MAX_BODY_DEPTH = 16;

/** Walks the parsed body iteratively: the first prototype-polluting key, or excessive nesting. */
export function inspectBody(body: unknown): string | undefined {
  const stack: [unknown, number][] = [[body, 1]];
  while (stack.length) {
    const [value, depth] = stack.pop()!;
    if (value === null || typeof value !== 'object') continue;
    if (depth > MAX_BODY_DEPTH) return `request body must not nest deeper than ${MAX_BODY_DEPTH} levels`;
    for (const key of Object.keys(value)) {
      if (FORBIDDEN_KEYS.has(key)) return `request body must not contain the key "${key}"`;
      stack.push([(value as Record<string, unknown>)[key], depth + 1]);
    }
  }
  return undefined;
}

/**
 * JSON body parsing as middleware of AppModule (not Nest's built-in parser, which main.ts would
 * have to configure), so tests that boot AppModule parse bodies exactly as production does.
 * POST needs Content-Type application/json (415), the body must be one JSON object (400),
 * the size limit is BODY_LIMIT_BYTES (413; 16 KB in the interview room, whose bodies are a form or one
 * answer), and prototype-polluting keys and deep nesting are refused (400).
 */
@Injectable()
export class JsonBodyMiddleware implements NestMiddleware {
  private readonly parseApi: RequestHandler;
  private readonly parseRoom: RequestHandler;

  constructor(config: AppConfig) {
    this.parseApi = json({ limit: config.bodyLimitBytes, strict: true, type: () => true });
    this.parseRoom = json({ limit: ROOM_LIMITS.bodyBytes, strict: true, type: () => true });
  }

  async use(req: Request, res: Response, next: NextFunction): Promise<void> {
    if (req.method !== 'POST' && req.method !== 'PUT' && req.method !== 'PATCH') return next();
    if (!req.is('application/json')) {
      throw new UnsupportedMediaTypeException('Content-Type must be application/json');
    }
    const parse = roomLinkOf(req.originalUrl) !== undefined ? this.parseRoom : this.parseApi;
    await new Promise<void>((resolve, reject) => parse(req, res, (err?: unknown) => (err ? reject(err) : resolve())));
    const body: unknown = req.body;
    if (body === undefined || body === null || typeof body !== 'object' || Array.isArray(body)) {
      throw new BadRequestException('request body must be a JSON object');
    }
    const problem = inspectBody(body);
    if (problem) throw new BadRequestException(problem);
    next();
  }
}
