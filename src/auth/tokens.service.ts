import { Injectable, NotFoundException } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { Repository } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { uuidv7 } from '../common/ids';
import { ApiToken } from './api-token.entity';
import type { Principal } from './principal';

export const TOKEN_PREFIX = 'irs_';
/** irs_ + 32 random bytes in base64url. */
export const TOKEN_PATTERN = /^irs_[A-Za-z0-9_-]{43}$/;
const CACHE_MAX_ENTRIES = 10_000;

export interface CreateTokenInput {
  name?: string | null;
  isAdmin?: boolean;
  orgID?: string | null;
  userID?: string | null;
}

export interface CreatedToken {
  id: string;
  token: string;
}

export interface TokenSummary {
  id: string;
  name: string | null;
  isAdmin: boolean;
  orgID: string | null;
  userID: string | null;
  createdAt: string;
  revokedAt: string | null;
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/**
 * Issues, lists, revokes and verifies API tokens. Verification is cached per token hash for
 * TOKEN_CACHE_TTL_SECONDS (unknown tokens too, so a flood of bad tokens does not reach the
 * database); a revoked token therefore stops working within that time on every instance,
 * and at once on the instance that revoked it.
 */
@Injectable()
export class TokensService {
  private readonly cache = new Map<string, { principal: Principal | null; expiresAt: number }>();
  /** Bumped by revoke(): a lookup that raced a revocation must not re-cache what it read. */
  private generation = 0;

  constructor(
    @InjectRepository(ApiToken) private readonly tokens: Repository<ApiToken>,
    private readonly config: AppConfig,
  ) {}

  async create(input: CreateTokenInput): Promise<CreatedToken> {
    const isAdmin = input.isAdmin ?? false;
    if (!isAdmin && !input.orgID && !input.userID) {
      throw new Error('a scoped token needs an orgID and/or a userID');
    }
    const token = TOKEN_PREFIX + randomBytes(32).toString('base64url');
    const row = this.tokens.create({
      id: uuidv7(),
      name: input.name ?? null,
      tokenHash: hashToken(token),
      isAdmin,
      orgID: isAdmin ? null : (input.orgID ?? null),
      userID: isAdmin ? null : (input.userID ?? null),
      createdAt: new Date(),
      revokedAt: null,
    });
    await this.tokens.insert(row);
    return { id: row.id, token };
  }

  async list(): Promise<TokenSummary[]> {
    const rows = await this.tokens.find({ order: { createdAt: 'ASC', id: 'ASC' } });
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      isAdmin: r.isAdmin,
      orgID: r.orgID,
      userID: r.userID,
      createdAt: r.createdAt.toISOString(),
      revokedAt: r.revokedAt ? r.revokedAt.toISOString() : null,
    }));
  }

  async revoke(id: string): Promise<void> {
    const row = await this.tokens.findOneBy({ id });
    if (!row) throw new NotFoundException(`no token with id ${id}`);
    if (!row.revokedAt) await this.tokens.update({ id }, { revokedAt: new Date() });
    this.generation++;
    this.cache.delete(row.tokenHash);
  }

  async count(): Promise<number> {
    return this.tokens.count();
  }

  /** The principal for a presented token, or null when it is malformed, unknown or revoked. */
  async verify(token: string): Promise<Principal | null> {
    if (!TOKEN_PATTERN.test(token)) return null;
    const hash = hashToken(token);
    const now = Date.now();
    const cached = this.cache.get(hash);
    if (cached && cached.expiresAt > now) return cached.principal;

    const generation = this.generation;
    const row = await this.tokens.findOneBy({ tokenHash: hash });
    const matches = !!row && timingSafeEqual(Buffer.from(row.tokenHash, 'hex'), Buffer.from(hash, 'hex'));
    const principal: Principal | null =
      matches && row && !row.revokedAt ? { tokenId: row.id, isAdmin: row.isAdmin, orgID: row.orgID, userID: row.userID } : null;
    if (generation === this.generation) this.remember(hash, principal, now);
    return principal;
  }

  private remember(hash: string, principal: Principal | null, now: number): void {
    if (this.config.tokenCacheTtlMs <= 0) return;
    this.cache.delete(hash);
    if (this.cache.size >= CACHE_MAX_ENTRIES) {
      const oldest = this.cache.keys().next().value;
      if (oldest !== undefined) this.cache.delete(oldest);
    }
    this.cache.set(hash, { principal, expiresAt: now + this.config.tokenCacheTtlMs });
  }
}
