import { ExecutionContext, HttpException, HttpStatus } from '@nestjs/common';
import type { Request } from 'express';
import { AppConfig } from '../config/app-config';
import type { Principal } from './principal';
import { RateLimitGuard } from './rate-limit.guard';

interface FakeResponse {
  setHeader: jest.Mock;
}

function principal(tokenId: string): Principal {
  return { tokenId, isAdmin: false, orgID: 'org_acme', userID: null };
}

function contextFor(req: Partial<Request>, res: FakeResponse): ExecutionContext {
  return {
    switchToHttp: () => ({ getRequest: () => req, getResponse: () => res, getNext: () => undefined }),
    getHandler: () => () => undefined,
    getClass: () => Object,
  } as unknown as ExecutionContext;
}

function headersOf(res: FakeResponse): Record<string, string> {
  return Object.fromEntries(res.setHeader.mock.calls.map(([name, value]) => [name as string, value as string]));
}

/** An HttpException whose status is 429. */
const TOO_MANY = expect.objectContaining({ constructor: HttpException, status: HttpStatus.TOO_MANY_REQUESTS });

/** One allowed request by the given token; returns the response headers it set. */
function allowed(sut: RateLimitGuard, tokenId: string): Record<string, string> {
  const res: FakeResponse = { setHeader: jest.fn() };
  expect(sut.canActivate(contextFor({ principal: principal(tokenId) }, res))).toBe(true);
  return headersOf(res);
}

/** One request by the given token that must be refused with 429; returns the response headers it set. */
function refused(sut: RateLimitGuard, tokenId: string): Record<string, string> {
  const res: FakeResponse = { setHeader: jest.fn() };
  expect(() => sut.canActivate(contextFor({ principal: principal(tokenId) }, res))).toThrow(TOO_MANY);
  return headersOf(res);
}

describe(RateLimitGuard.name, () => {
  const START = 1_700_000_000_000;
  let now: number;
  let sut: RateLimitGuard;

  beforeEach(() => {
    now = START;
    jest.spyOn(Date, 'now').mockImplementation(() => now);
    sut = new RateLimitGuard({ rateLimit: { limit: 3, windowMs: 1000 } } as unknown as AppConfig);
  });

  afterEach(() => {
    jest.restoreAllMocks();
  });

  it('sets RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset on an allowed request', () => {
    expect(allowed(sut, 'tok-a')).toEqual({ 'RateLimit-Limit': '3', 'RateLimit-Remaining': '2', 'RateLimit-Reset': '1' });
  });

  it('counts Remaining down to 0 within the window', () => {
    expect([1, 2, 3].map(() => allowed(sut, 'tok-a')['RateLimit-Remaining'])).toEqual(['2', '1', '0']);
  });

  it('answers the 4th request in the window with 429 and Retry-After', () => {
    for (let i = 0; i < 3; i++) allowed(sut, 'tok-a');
    const res: FakeResponse = { setHeader: jest.fn() };

    expect(() => sut.canActivate(contextFor({ principal: principal('tok-a') }, res))).toThrow(
      expect.objectContaining({ status: 429, message: expect.stringMatching(/rate limit of 3 requests per 1 s exceeded/) }),
    );
    expect(headersOf(res)).toEqual({
      'RateLimit-Limit': '3',
      'RateLimit-Remaining': '0',
      'RateLimit-Reset': '1',
      'Retry-After': '1',
    });
  });

  it('does not set Retry-After on allowed requests', () => {
    for (let i = 0; i < 3; i++) expect(allowed(sut, 'tok-a')).not.toHaveProperty('Retry-After');
  });

  it('keeps a separate counter per token', () => {
    for (let i = 0; i < 3; i++) allowed(sut, 'tok-a');
    refused(sut, 'tok-a');

    expect(allowed(sut, 'tok-b')['RateLimit-Remaining']).toBe('2');
  });

  it('starts a fresh window once the window has passed', () => {
    for (let i = 0; i < 3; i++) allowed(sut, 'tok-a');
    now += 999;
    refused(sut, 'tok-a');

    now = START + 1000;

    expect(allowed(sut, 'tok-a')).toEqual({ 'RateLimit-Limit': '3', 'RateLimit-Remaining': '2', 'RateLimit-Reset': '1' });
  });

  it('lets a request without a principal (public route) through untouched and uncounted', () => {
    const res: FakeResponse = { setHeader: jest.fn() };

    for (let i = 0; i < 10; i++) expect(sut.canActivate(contextFor({}, res))).toBe(true);
    expect(res.setHeader).not.toHaveBeenCalled();
    expect(allowed(sut, 'tok-a')['RateLimit-Remaining']).toBe('2');
  });

  it('rounds RateLimit-Reset up to whole seconds for longer windows', () => {
    sut = new RateLimitGuard({ rateLimit: { limit: 3, windowMs: 60_000 } } as unknown as AppConfig);
    allowed(sut, 'tok-a');
    now += 30_500;

    expect(allowed(sut, 'tok-a')['RateLimit-Reset']).toBe('30');
  });
});
