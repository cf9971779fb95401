import type { Request, Response } from 'express';
import helmet from 'helmet';
import { AppConfig } from '../config/app-config';
import { SecurityMiddleware } from './security.middleware';

function captured(run: (res: Response, next: () => void) => void): Record<string, string> {
  const headers: Record<string, string> = {};
  const res = { setHeader: (n: string, v: unknown) => (headers[n.toLowerCase()] = String(v)), removeHeader: () => undefined } as unknown as Response;
  run(res, () => undefined);
  return headers;
}

describe(SecurityMiddleware.name, () => {
  it('sets exactly the headers helmet itself sets', () => {
    const sut = new SecurityMiddleware({ corsOrigins: [] } as unknown as AppConfig);
    const ours = captured((res, next) => sut.use({ originalUrl: '/v1/products/getOne' } as Request, res, next));
    const helmets = captured((res, next) => helmet({ contentSecurityPolicy: { directives: { upgradeInsecureRequests: null } } })({} as never, res as never, next));
    expect(ours).toEqual(helmets);
    expect(Object.keys(ours)).toEqual(expect.arrayContaining(['content-security-policy', 'x-content-type-options', 'strict-transport-security', 'referrer-policy']));
  });

  it('adds no-store and noindex in the interview room only', () => {
    const sut = new SecurityMiddleware({ corsOrigins: [] } as unknown as AppConfig);
    expect(captured((res, next) => sut.use({ originalUrl: '/i/abc/session' } as Request, res, next))).toMatchObject({ 'cache-control': 'no-store', 'x-robots-tag': 'noindex, nofollow' });
    expect(captured((res, next) => sut.use({ originalUrl: '/v1/x' } as Request, res, next))['cache-control']).toBeUndefined();
  });
});
