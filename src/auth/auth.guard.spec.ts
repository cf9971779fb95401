import { ExecutionContext, UnauthorizedException } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { AuthGuard } from './auth.guard';
import type { Principal } from './principal';
import { IS_PUBLIC } from './public.decorator';
import { hashToken } from './token-cache';
import { TokensService } from './tokens.service';

const TOKEN = 'irs_' + 'A'.repeat(43);
const PRINCIPAL: Principal = { tokenId: 'tok-1', isAdmin: false, orgID: 'org_acme', userID: null };

function handler(): void {}
class SomeController {}

function contextFor(req: Partial<Request>): ExecutionContext {
  return {
    switchToHttp: () => ({ getRequest: () => req, getResponse: () => ({}), getNext: () => undefined }),
    getHandler: () => handler,
    getClass: () => SomeController,
  } as unknown as ExecutionContext;
}

describe(AuthGuard.name, () => {
  let reflector: { getAllAndOverride: jest.Mock };
  let tokens: { verify: jest.Mock };
  let sut: AuthGuard;

  beforeEach(() => {
    reflector = { getAllAndOverride: jest.fn().mockReturnValue(undefined) };
    tokens = { verify: jest.fn().mockResolvedValue(PRINCIPAL) };
    sut = new AuthGuard(reflector as unknown as Reflector, tokens as unknown as TokensService);
  });

  it('lets a public route through without an Authorization header and without verifying anything', async () => {
    reflector.getAllAndOverride.mockReturnValue(true);
    const req: Partial<Request> = { headers: {} };

    await expect(sut.canActivate(contextFor(req))).resolves.toBe(true);
    expect(reflector.getAllAndOverride).toHaveBeenCalledWith(IS_PUBLIC, [handler, SomeController]);
    expect(tokens.verify).not.toHaveBeenCalled();
    expect(req.principal).toBeUndefined();
  });

  it('rejects a request without an Authorization header with 401', async () => {
    const req: Partial<Request> = { headers: {} };

    await expect(sut.canActivate(contextFor(req))).rejects.toThrow(UnauthorizedException);
    await expect(sut.canActivate(contextFor(req))).rejects.toThrow(/missing Authorization header/);
    expect(tokens.verify).not.toHaveBeenCalled();
  });

  it.each(['Basic x', 'Bearer', 'Bearer ', 'Bearer a b', `Token ${TOKEN}`])(
    'rejects the malformed header %p with 401 without verifying',
    async (authorization) => {
      const req: Partial<Request> = { headers: { authorization } };

      await expect(sut.canActivate(contextFor(req))).rejects.toThrow(UnauthorizedException);
      await expect(sut.canActivate(contextFor(req))).rejects.toThrow(/malformed Authorization header/);
      expect(tokens.verify).not.toHaveBeenCalled();
      expect(req.principal).toBeUndefined();
    },
  );

  it('rejects an unknown or revoked token (verify returns null) with 401', async () => {
    tokens.verify.mockResolvedValue(null);
    const req: Partial<Request> = { headers: { authorization: `Bearer ${TOKEN}` } };

    await expect(sut.canActivate(contextFor(req))).rejects.toThrow(UnauthorizedException);
    await expect(sut.canActivate(contextFor(req))).rejects.toThrow('invalid or revoked token');
    expect(req.principal).toBeUndefined();
  });

  it('accepts a valid token and attaches the principal to the request', async () => {
    const req: Partial<Request> = { headers: { authorization: `Bearer ${TOKEN}` } };

    await expect(sut.canActivate(contextFor(req))).resolves.toBe(true);
    expect(req.principal).toEqual(PRINCIPAL);
  });

  it('passes exactly the bearer value to verify', async () => {
    const req: Partial<Request> = { headers: { authorization: `Bearer ${TOKEN}` } };

    await expect(sut.canActivate(contextFor(req))).resolves.toBe(true);
    expect(tokens.verify).toHaveBeenCalledTimes(1);
    // With its hash, computed once per request (the rate limit used it first).
    expect(tokens.verify).toHaveBeenCalledWith(TOKEN, hashToken(TOKEN));
  });

  it('accepts the scheme case-insensitively and ignores surrounding whitespace', async () => {
    const req: Partial<Request> = { headers: { authorization: `  bearer ${TOKEN}  ` } };

    await expect(sut.canActivate(contextFor(req))).resolves.toBe(true);
    expect(tokens.verify).toHaveBeenCalledWith(TOKEN, hashToken(TOKEN));
  });

  it('propagates a failure of the token store rather than letting the request through', async () => {
    tokens.verify.mockRejectedValue(new Error('pool is closed'));
    const req: Partial<Request> = { headers: { authorization: `Bearer ${TOKEN}` } };

    await expect(sut.canActivate(contextFor(req))).rejects.toThrow('pool is closed');
    expect(req.principal).toBeUndefined();
  });
});
