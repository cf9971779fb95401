import { HttpException } from '@nestjs/common';
import type { Request, Response } from 'express';
import { loadConfig } from '../config/app-config';
import { RateLimitMiddleware } from './rate-limit.middleware';
import { RateLimiterService } from './rate-limiter.service';
import { Metrics } from '../metrics/metrics.service';

function fakeReq(authorization?: string, ip = '10.0.0.1'): Request {
  return { headers: authorization ? { authorization } : {}, ip, socket: { remoteAddress: ip } } as unknown as Request;
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
    const config = loadConfig({ RATE_LIMIT_MAX: '3', RATE_LIMIT_WINDOW_SECONDS: '1' });
    sut = new RateLimitMiddleware(new RateLimiterService(config, new Metrics({ port: null })), config);
  });

  afterEach(() => jest.restoreAllMocks());

  it('sets the RateLimit headers and passes requests within the limit', async () => {
    await expect(pass(fakeReq('Bearer irs_a'))).resolves.toEqual({ 'RateLimit-Limit': '3', 'RateLimit-Remaining': '2', 'RateLimit-Reset': '1' });
  });

  it('refuses the request over the limit with 429 and Retry-After', async () => {
    for (let i = 0; i < 3; i++) await pass(fakeReq('Bearer irs_a'));
    const headers = await refuse(fakeReq('Bearer irs_a'));
    expect(headers['Retry-After']).toBe('1');
    expect(headers['RateLimit-Remaining']).toBe('0');
  });

  it('counts tokens separately', async () => {
    for (let i = 0; i < 3; i++) await pass(fakeReq('Bearer irs_a'));
    await refuse(fakeReq('Bearer irs_a'));
    await expect(pass(fakeReq('Bearer irs_b'))).resolves.toMatchObject({ 'RateLimit-Remaining': '2' });
  });

  it('counts clients without a token by address: one address used up, another still answered', async () => {
    for (let i = 0; i < 3; i++) await pass(fakeReq(undefined, '10.0.0.2'));
    await refuse(fakeReq(undefined, '10.0.0.2'));
    // A malformed Authorization header is no token either: it counts against the address.
    await refuse(fakeReq('Basic dXNlcjpwYXNz', '10.0.0.2'));
    await expect(pass(fakeReq(undefined, '10.0.0.3'))).resolves.toMatchObject({ 'RateLimit-Remaining': '2' });
    // A token is counted apart from its address.
    await expect(pass(fakeReq('Bearer irs_c', '10.0.0.2'))).resolves.toMatchObject({ 'RateLimit-Remaining': '2' });
  });

  it('starts a new window once the old one has passed', async () => {
    for (let i = 0; i < 3; i++) await pass(fakeReq('Bearer irs_a'));
    now += 1001;
    await expect(pass(fakeReq('Bearer irs_a'))).resolves.toMatchObject({ 'RateLimit-Remaining': '2' });
  });
});
