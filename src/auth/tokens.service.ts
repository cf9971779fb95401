import { Injectable, NotFoundException } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { Repository } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { uuidv7 } from '../common/ids';
import { ApiToken } from './api-token.entity';
import type { Principal } from './principal';
import { TOKEN_PATTERN, TokenCache, hashToken } from './token-cache';
import { hasEdgeWhitespace } from '../common/validation';

export const TOKEN_PREFIX = 'irs_';

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

/**
 * Issues, lists, revokes and verifies API tokens. Verification is cached per token hash for
 * TOKEN_CACHE_TTL_SECONDS (unknown tokens too, so a flood of bad tokens does not reach the
 * database); a revoked token therefore stops working within that time on every instance,
 * and at once on the instance that revoked it.
 */
@Injectable()
export class TokensService {
  private readonly cache: TokenCache;

  constructor(
    @InjectRepository(ApiToken) private readonly tokens: Repository<ApiToken>,
    config: AppConfig,
  ) {
    this.cache = new TokenCache(config.tokenCacheTtlMs);
  }

  async create(input: CreateTokenInput): Promise<CreatedToken> {
    const isAdmin = input.isAdmin ?? false;
    if (!isAdmin && !input.orgID && !input.userID) {
      throw new Error('a scoped token needs an orgID and/or a userID');
    }
    for (const [field, value] of [['orgID', input.orgID], ['userID', input.userID]] as const) {
      // A scope is compared exactly with the records' owners: "orgB " must never become a second name for orgB.
      if (value && hasEdgeWhitespace(value)) throw new Error(`${field} must not start or end with whitespace`);
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
    // A lookup that raced this revocation will not re-cache what it read.
    this.cache.evict(row.tokenHash);
  }

  async count(): Promise<number> {
    return this.tokens.count();
  }

  /**
   * The principal for a presented token, or null when it is malformed, unknown or revoked. `hash` is
   * the token's hashToken(), when the caller has it already.
   */
  async verify(token: string, hash = hashToken(token)): Promise<Principal | null> {
    if (!TOKEN_PATTERN.test(token)) return null;
    const cached = this.cache.get(hash);
    if (cached !== undefined) return cached;

    const generation = this.cache.generation;
    const row = await this.tokens.findOneBy({ tokenHash: hash });
    const matches = !!row && timingSafeEqual(Buffer.from(row.tokenHash, 'hex'), Buffer.from(hash, 'hex'));
    const principal: Principal | null =
      matches && row && !row.revokedAt ? { tokenId: row.id, isAdmin: row.isAdmin, orgID: row.orgID, userID: row.userID } : null;
    this.cache.remember(hash, principal, generation);
    return principal;
  }
}
