import { HttpException } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AppConfig } from '../config/app-config';
import { RateLimitMiddleware } from './rate-limit.middleware';

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

  beforeEach(() => {
    now = 1_000_000;
    jest.spyOn(Date, 'now').mockImplementation(() => now);
    sut = new RateLimitMiddleware({ rateLimit: { limit: 3, windowMs: 1000 } } as AppConfig);
  });

  afterEach(() => jest.restoreAllMocks());

  it('sets the RateLimit headers and passes requests within the limit', () => {
    const { headers, res } = fakeRes();
    const next = jest.fn();
    sut.use(fakeReq('Bearer irs_a'), res, next);
    expect(next).toHaveBeenCalledTimes(1);
    expect(headers).toEqual({ 'RateLimit-Limit': '3', 'RateLimit-Remaining': '2', 'RateLimit-Reset': '1' });
  });

  it('refuses the request over the limit with 429 and Retry-After', () => {
    for (let i = 0; i < 3; i++) sut.use(fakeReq('Bearer irs_a'), fakeRes().res, jest.fn());
    const { headers, res } = fakeRes();
    const next = jest.fn();
    expect(() => sut.use(fakeReq('Bearer irs_a'), res, next)).toThrow(expect.objectContaining({ status: 429 }) as unknown as HttpException);
    expect(next).not.toHaveBeenCalled();
    expect(headers['Retry-After']).toBe('1');
    expect(headers['RateLimit-Remaining']).toBe('0');
  });

  it('counts tokens separately, and clients without a token by address', () => {
    for (let i = 0; i < 3; i++) sut.use(fakeReq('Bearer irs_a'), fakeRes().res, jest.fn());
    const next = jest.fn();
    sut.use(fakeReq('Bearer irs_b'), fakeRes().res, next);
    sut.use(fakeReq(undefined, '10.0.0.2'), fakeRes().res, next);
    expect(next).toHaveBeenCalledTimes(2);
  });

  it('starts a new window once the old one has passed', () => {
    for (let i = 0; i < 3; i++) sut.use(fakeReq('Bearer irs_a'), fakeRes().res, jest.fn());
    now += 1001;
    const next = jest.fn();
    const { headers, res } = fakeRes();
    sut.use(fakeReq('Bearer irs_a'), res, next);
    expect(next).toHaveBeenCalledTimes(1);
    expect(headers['RateLimit-Remaining']).toBe('2');
  });
});
