import { hash } from 'node:crypto';
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
 * `maxEntries` of them (the oldest written goes first). A lookup that started before an evict()
 * must not re-cache what it read: take generation before the lookup and pass it to remember().
 */
export class TokenCache {
  private readonly entries = new Map<string, { principal: Principal | null; expiresAt: number }>();
  private current = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = TOKEN_CACHE_MAX_ENTRIES,
  ) {}

  /** The cached answer (a principal or null), or undefined when there is none or it has expired. */
  get(hash: string, now: number): Principal | null | undefined {
    const cached = this.entries.get(hash);
    return cached && cached.expiresAt > now ? cached.principal : undefined;
  }

  /** Changes on every evict(). */
  get generation(): number {
    return this.current;
  }

  /** Caches an answer read at `generation`, unless an evict() happened since or caching is off. */
  remember(hash: string, principal: Principal | null, now: number, generation: number): void {
    if (generation !== this.current || this.ttlMs <= 0) return;
    this.entries.delete(hash);
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(hash, { principal, expiresAt: now + this.ttlMs });
  }

  /** Forgets a token (revoked): its next check reaches the database. */
  evict(hash: string): void {
    this.current++;
    this.entries.delete(hash);
  }
}
