import { BadRequestException, HttpException, PayloadTooLargeException, UnsupportedMediaTypeException } from '@nestjs/common';
import { json } from 'express';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { scan } from 'secure-json-parse';

/** No request of this API nests deeper; deeper bodies would only exhaust the stack downstream (the pipe walks them recursively). */
export const MAX_BODY_DEPTH = 16;

/** body-parser's error types, as the contract words them (its own messages quote the body). */
const PARSER_ERRORS: Record<string, () => HttpException> = {
  'entity.parse.failed': () => new BadRequestException('request body is not valid JSON'),
  'entity.verify.failed': () => new BadRequestException('request body is not valid JSON'),
  'entity.too.large': () => new PayloadTooLargeException('request body is too large'),
  'encoding.unsupported': () => new UnsupportedMediaTypeException('unsupported content encoding'),
  'charset.unsupported': () => new UnsupportedMediaTypeException('unsupported charset: send application/json in UTF-8'),
  'request.aborted': () => new BadRequestException('request was aborted'),
  'request.size.invalid': () => new BadRequestException('request body size did not match Content-Length'),
};

function depthOf(body: unknown): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[body, 1]];
  while (stack.length) {
    const [value, depth] = stack.pop()!;
    if (value === null || typeof value !== 'object') continue;
    deepest = Math.max(deepest, depth);
    if (deepest > MAX_BODY_DEPTH) break;
    for (const child of Object.values(value)) stack.push([child, depth + 1]);
  }
  return deepest;
}

/**
 * JSON bodies, as middleware a module applies to its routes with its own size limit (the API's
 * BODY_LIMIT_BYTES, the interview room's 16 KB): Express's own JSON parser (body-parser, the one Nest's
 * useBodyParser installs), then the contract's rules. A write needs Content-Type application/json (415),
 * its body must be one JSON object (400), larger than the limit is 413, and prototype-polluting keys
 * (secure-json-parse: `__proto__`, `constructor.prototype`) and deep nesting are 400.
 *
 * Middleware rather than app.useBodyParser, which would parse every body before any module middleware
 * runs: a refused body would then get no request id, no log line and no rate-limit headers, and the
 * room could not have a limit of its own.
 */
export function jsonBody(limit: number): RequestHandler {
  const parse = json({ limit, strict: true, type: () => true });
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'POST' && req.method !== 'PUT' && req.method !== 'PATCH') return next();
    if (!req.is('application/json')) return next(new UnsupportedMediaTypeException('Content-Type must be application/json'));
    parse(req, res, (error?: unknown) => {
      if (error) {
        const type = (error as { type?: unknown }).type;
        return next(typeof type === 'string' && Object.hasOwn(PARSER_ERRORS, type) ? PARSER_ERRORS[type]() : error);
      }
      const body: unknown = req.body;
      if (body === null || typeof body !== 'object' || Array.isArray(body)) return next(new BadRequestException('request body must be a JSON object'));
      if (depthOf(body) > MAX_BODY_DEPTH) return next(new BadRequestException(`request body must not nest deeper than ${MAX_BODY_DEPTH} levels`));
      try {
        scan(body, { protoAction: 'error', constructorAction: 'error' });
      } catch {
        return next(new BadRequestException('request body must not contain the keys "__proto__" or "constructor.prototype"'));
      }
      next();
    });
  };
}
