import { CanActivate, ExecutionContext, Injectable, UnauthorizedException } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { IS_PUBLIC } from './public.decorator';
import { TokensService } from './tokens.service';

/** Global guard: every route needs `Authorization: Bearer irs_...` unless marked @Public(). */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly tokens: TokensService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [context.getHandler(), context.getClass()])) {
      return true;
    }
    const req = context.switchToHttp().getRequest<Request>();
    const header = req.headers.authorization;
    if (!header) throw new UnauthorizedException('missing Authorization header: send "Authorization: Bearer <token>"');
    const match = /^Bearer ([^\s]+)$/i.exec(header.trim());
    if (!match) throw new UnauthorizedException('malformed Authorization header: expected "Bearer <token>"');
    const principal = await this.tokens.verify(match[1]);
    if (!principal) throw new UnauthorizedException('invalid or revoked token');
    req.principal = principal;
    return true;
  }
}
