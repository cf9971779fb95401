import { CanActivate, ExecutionContext, Injectable, UnauthorizedException } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { presentedToken } from './bearer';
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
    const presented = presentedToken(req);
    if (presented.kind === 'missing') throw new UnauthorizedException('missing Authorization header: send "Authorization: Bearer <token>"');
    if (presented.kind === 'malformed') throw new UnauthorizedException('malformed Authorization header: expected "Bearer <token>"');
    const principal = await this.tokens.verify(presented.token, presented.hash);
    if (!principal) throw new UnauthorizedException('invalid or revoked token');
    req.principal = principal;
    return true;
  }
}
