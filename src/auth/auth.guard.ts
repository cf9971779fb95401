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

  /** @Public() per controller and handler: decorators are read once, not on every request. */
  private readonly publicRoutes = new WeakMap<object, WeakMap<object, boolean>>();

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (this.isPublic(context)) return true;
    const req = context.switchToHttp().getRequest<Request>();
    const presented = presentedToken(req);
    if (presented.kind === 'missing') throw new UnauthorizedException('missing Authorization header: send "Authorization: Bearer <token>"');
    if (presented.kind === 'malformed') throw new UnauthorizedException('malformed Authorization header: expected "Bearer <token>"');
    const principal = await this.tokens.verify(presented.token, presented.hash);
    if (!principal) throw new UnauthorizedException('invalid or revoked token');
    req.principal = principal;
    return true;
  }

  private isPublic(context: ExecutionContext): boolean {
    const handler = context.getHandler();
    const controller = context.getClass();
    let handlers = this.publicRoutes.get(controller);
    if (!handlers) this.publicRoutes.set(controller, (handlers = new WeakMap()));
    let isPublic = handlers.get(handler);
    if (isPublic === undefined) {
      isPublic = this.reflector.getAllAndOverride<boolean | undefined>(IS_PUBLIC, [handler, controller]) === true;
      handlers.set(handler, isPublic);
    }
    return isPublic;
  }
}
