import { HttpException } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AppConfig } from '../config/app-config';
import { RateLimitMiddleware } from './rate-limit.middleware';
import { RateLimiterService } from './rate-limiter.service';

function fakeReq(path: string, authorization?: string, ip = '10.0.0.1'): Request {
  return { originalUrl: path, headers: authorization ? { authorization } : {}, ip, socket: { remoteAddress: ip } } as unknown as Request;
}

function fakeRes() {
  const headers: Record<string, string> = {};
  return { headers, res: { setHeader: jest.fn((k: string, v: string) => (headers[k] = v)) } as unknown as Response };
}

describe(RateLimitMiddleware.name, () => {
  let sut: RateLimitMiddleware;
  let now: number;

  const pass = async (req: Request) => {
    const next = jest.fn();
    const { headers, res } = fakeRes();
    await sut.use(req, res, next);
    expect(next).toHaveBeenCalledTimes(1);
    return headers;
  };

  const refuse = async (req: Request) => {
    const next = jest.fn();
    const { headers, res } = fakeRes();
    await expect(sut.use(req, res, next)).rejects.toThrow(expect.objectContaining({ status: 429 }) as unknown as HttpException);
    expect(next).not.toHaveBeenCalled();
    return headers;
  };

  beforeEach(() => {
    now = 1_000_000;
    jest.spyOn(Date, 'now').mockImplementation(() => now);
    const config = { rateLimit: { limit: 3, windowMs: 1000 }, room: { rateLimit: { perAddress: 4, perLink: 2 } } } as AppConfig;
    sut = new RateLimitMiddleware(new RateLimiterService(config), config);
  });

  afterEach(() => jest.restoreAllMocks());

  describe('on /v1', () => {
    it('sets the RateLimit headers and passes requests within the limit', async () => {
      await expect(pass(fakeReq('/v1/products/getOne', 'Bearer irs_a'))).resolves.toEqual({ 'RateLimit-Limit': '3', 'RateLimit-Remaining': '2', 'RateLimit-Reset': '1' });
    });

    it('refuses the request over the limit with 429 and Retry-After', async () => {
      for (let i = 0; i < 3; i++) await pass(fakeReq('/v1/x', 'Bearer irs_a'));
      const headers = await refuse(fakeReq('/v1/x', 'Bearer irs_a'));
      expect(headers['Retry-After']).toBe('1');
      expect(headers['RateLimit-Remaining']).toBe('0');
    });

    it('counts tokens separately, and clients without a token by address', async () => {
      for (let i = 0; i < 3; i++) await pass(fakeReq('/v1/x', 'Bearer irs_a'));
      await pass(fakeReq('/v1/x', 'Bearer irs_b'));
      await pass(fakeReq('/v1/x', undefined, '10.0.0.2'));
    });

    it('starts a new window once the old one has passed', async () => {
      for (let i = 0; i < 3; i++) await pass(fakeReq('/v1/x', 'Bearer irs_a'));
      now += 1001;
      await expect(pass(fakeReq('/v1/x', 'Bearer irs_a'))).resolves.toMatchObject({ 'RateLimit-Remaining': '2' });
    });
  });

  describe('in the interview room', () => {
    it('counts per link: a third request to one link is refused, another link still answers', async () => {
      await pass(fakeReq('/i/link-a/session'));
      await expect(pass(fakeReq('/i/link-a'))).resolves.toMatchObject({ 'RateLimit-Limit': '2', 'RateLimit-Remaining': '0' });
      await refuse(fakeReq('/i/link-a/reply'));
      await pass(fakeReq('/i/link-b/session'));
    });

    it('counts per address across links', async () => {
      for (const link of ['a', 'b', 'c', 'd']) await pass(fakeReq(`/i/${link}/session`, undefined, '10.0.0.9'));
      await expect(refuse(fakeReq('/i/e/session', undefined, '10.0.0.9'))).resolves.toMatchObject({ 'RateLimit-Limit': '4' });
      await pass(fakeReq('/i/e/session', undefined, '10.0.0.10'));
    });

    it('does not count room requests against the /v1 limit of a token', async () => {
      for (let i = 0; i < 2; i++) await pass(fakeReq('/i/link-z/session', 'Bearer irs_c'));
      for (let i = 0; i < 3; i++) await pass(fakeReq('/v1/x', 'Bearer irs_c'));
    });
  });

  describe('static files', () => {
    it.each(['/docs', '/docs/swagger-ui.css', '/docs-json', '/docs-yaml', '/assets/room.js', '/assets/room.css?v=3'])('neither counts nor limits %s', async (path) => {
      for (let i = 0; i < 5; i++) await expect(pass(fakeReq(path, 'Bearer irs_d'))).resolves.toEqual({});
      await expect(pass(fakeReq('/v1/x', 'Bearer irs_d'))).resolves.toMatchObject({ 'RateLimit-Remaining': '2' });
    });

    it('limits paths that only begin like them', async () => {
      await expect(pass(fakeReq('/docsx', 'Bearer irs_e'))).resolves.toMatchObject({ 'RateLimit-Remaining': '2' });
      await expect(pass(fakeReq('/assetsx/room.js', 'Bearer irs_e'))).resolves.toMatchObject({ 'RateLimit-Remaining': '1' });
    });
  });
});
