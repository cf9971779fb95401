import { hash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { Principal } from './principal';

/**
 * What checking a presented token needs besides the database: its shape, its hash, and the cache of
 * answers. No Nest or TypeORM here, so the benchmark's baselines verify tokens with this same code.
 */

/** irs_ + 32 random bytes in base64url. */
export const TOKEN_PATTERN = /^irs_[A-Za-z0-9_-]{43}$/;

export const TOKEN_CACHE_MAX_ENTRIES = 10_000;

/** SHA-256 of the token's UTF-8 bytes, in hex (the one-shot crypto.hash). */
export function hashToken(token: string): string {
  return hash('sha256', token, 'hex');
}

/**
 * Verification answers per token hash, for `ttlMs` (unknown tokens too, as null), at most
 * `maxEntries` of them (the least recently used go first): lru-cache, with its clock on Date.now so
 * that a test's clock is the cache's. A lookup that started before an evict() must not re-cache what it
 * read: take generation before the lookup and pass it to remember().
 */
export class TokenCache {
  /** Values wrapped: lru-cache keeps no null, and "unknown token" (null) is an answer worth keeping. */
  private readonly entries: LRUCache<string, { principal: Principal | null }> | null;
  private current = 0;

  constructor(ttlMs: number, maxEntries = TOKEN_CACHE_MAX_ENTRIES) {
    // ttlResolution 0: an entry is read as expired the moment it is, not up to 1 ms later.
    this.entries = ttlMs > 0 ? new LRUCache({ max: maxEntries, ttl: ttlMs, ttlResolution: 0, perf: { now: () => Date.now() } }) : null;
  }

  /** The cached answer (a principal or null), or undefined when there is none or it has expired. */
  get(hash: string): Principal | null | undefined {
    return this.entries?.get(hash)?.principal;
  }

  /** Changes on every evict(). */
  get generation(): number {
    return this.current;
  }

  /** Caches an answer read at `generation`, unless an evict() happened since or caching is off. */
  remember(hash: string, principal: Principal | null, generation: number): void {
    if (generation !== this.current) return;
    this.entries?.set(hash, { principal });
  }

  /** Forgets a token (revoked): its next check reaches the database. */
  evict(hash: string): void {
    this.current++;
    this.entries?.delete(hash);
  }
}
