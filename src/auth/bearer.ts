import type { Request } from 'express';
import { hashToken } from './token-cache';

/** What a request's Authorization header presents: nothing, something that is not "Bearer <token>", or a token. */
export type Presented = { kind: 'missing' } | { kind: 'malformed' } | { kind: 'token'; token: string; hash: string };

const BEARER = /^Bearer ([^\s]+)$/i;
const read = new WeakMap<Request, Presented>();

/**
 * The request's Authorization header, parsed and hashed once: the rate limit reads it first (its
 * counter is keyed by the token's hash), the AuthGuard after (the hash finds the token).
 */
export function presentedToken(req: Request): Presented {
  let presented = read.get(req);
  if (presented === undefined) {
    const header = req.headers.authorization;
    const match = header === undefined ? null : BEARER.exec(header.trim());
    presented = header === undefined ? { kind: 'missing' } : match ? { kind: 'token', token: match[1], hash: hashToken(match[1]) } : { kind: 'malformed' };
    read.set(req, presented);
  }
  return presented;
}
