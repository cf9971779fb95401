import { CanActivate, ExecutionContext, Injectable, SetMetadata, UnauthorizedException, createParamDecorator } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { InjectRepository } from '@nestjs/typeorm';
import { createHash } from 'node:crypto';
import type { Request } from 'express';
import { Repository } from 'typeorm';
import { ApiToken } from './entities';

/** Who is calling: an admin token sees everything, a scoped one what its organization or user owns. */
export interface Principal {
  tokenId: string;
  isAdmin: boolean;
  orgID: string | null;
  userID: string | null;
}

/** Whether the caller may see a record owned by `owner` (a product, and through it its interviews and invites). */
export function canSee(principal: Principal, owner: { orgID: string | null; userID: string | null }): boolean {
  if (principal.isAdmin) return true;
  return (principal.orgID !== null && owner.orgID === principal.orgID) || (principal.userID !== null && owner.userID === principal.userID);
}

const IS_PUBLIC = 'isPublic';
/** A route that needs no token. */
export const Public = () => SetMetadata(IS_PUBLIC, true);

type AuthenticatedRequest = Request & { principal?: Principal };

export const CurrentPrincipal = createParamDecorator((_data: unknown, ctx: ExecutionContext) => ctx.switchToHttp().getRequest<AuthenticatedRequest>().principal);

const CACHE_TTL_MS = 30_000;

/** Global guard: `Authorization: Bearer <token>`, looked up by its SHA-256; answers cached 30 s per hash. */
@Injectable()
export class AuthGuard implements CanActivate {
  private readonly cache = new Map<string, { principal: Principal | null; expiresAt: number }>();

  constructor(
    private readonly reflector: Reflector,
    @InjectRepository(ApiToken) private readonly tokens: Repository<ApiToken>,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const isPublic = this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [context.getHandler(), context.getClass()]);
    if (isPublic) return true;

    const req = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const header = req.headers.authorization;
    if (!header) throw new UnauthorizedException('missing Authorization header: send "Authorization: Bearer <token>"');
    const [scheme, token] = header.split(' ');
    if (scheme !== 'Bearer' || !token) throw new UnauthorizedException('malformed Authorization header: expected "Bearer <token>"');

    const principal = await this.verify(token);
    if (!principal) throw new UnauthorizedException('invalid or revoked token');
    req.principal = principal;
    return true;
  }

  private async verify(token: string): Promise<Principal | null> {
    const tokenHash = createHash('sha256').update(token).digest('hex');
    const cached = this.cache.get(tokenHash);
    if (cached && cached.expiresAt > Date.now()) return cached.principal;

    const row = await this.tokens.findOneBy({ tokenHash });
    const principal = row && !row.revokedAt ? { tokenId: row.id, isAdmin: row.isAdmin, orgID: row.orgID, userID: row.userID } : null;
    this.cache.set(tokenHash, { principal, expiresAt: Date.now() + CACHE_TTL_MS });
    return principal;
  }
}
