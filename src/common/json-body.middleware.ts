import { BadRequestException, Injectable, NestMiddleware, UnsupportedMediaTypeException } from '@nestjs/common';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { json } from 'express';
import { AppConfig } from '../config/app-config';

const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

function findForbiddenKey(value: unknown, depth = 0): string | undefined {
  if (depth > 32 || value === null || typeof value !== 'object') return undefined;
  for (const key of Object.keys(value)) {
    if (FORBIDDEN_KEYS.has(key)) return key;
    const found = findForbiddenKey((value as Record<string, unknown>)[key], depth + 1);
    if (found) return found;
  }
  return undefined;
}

/**
 * JSON body parsing as middleware of AppModule (not Nest's built-in parser, which main.ts would
 * have to configure), so tests that boot AppModule parse bodies exactly as production does.
 * POST needs Content-Type application/json (415), the body must be one JSON object (400),
 * the size limit is BODY_LIMIT_BYTES (413), and prototype-polluting keys are refused (400).
 */
@Injectable()
export class JsonBodyMiddleware implements NestMiddleware {
  private readonly parse: RequestHandler;

  constructor(config: AppConfig) {
    this.parse = json({ limit: config.bodyLimitBytes, strict: true, type: () => true });
  }

  async use(req: Request, res: Response, next: NextFunction): Promise<void> {
    if (req.method !== 'POST' && req.method !== 'PUT' && req.method !== 'PATCH') return next();
    if (!req.is('application/json')) {
      throw new UnsupportedMediaTypeException('Content-Type must be application/json');
    }
    await new Promise<void>((resolve, reject) => this.parse(req, res, (err?: unknown) => (err ? reject(err) : resolve())));
    const body: unknown = req.body;
    if (body === undefined || body === null || typeof body !== 'object' || Array.isArray(body)) {
      throw new BadRequestException('request body must be a JSON object');
    }
    const forbidden = findForbiddenKey(body);
    if (forbidden) throw new BadRequestException(`request body must not contain the key "${forbidden}"`);
    next();
  }
}
