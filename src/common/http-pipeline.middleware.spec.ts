import { HttpException, HttpStatus, NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { RateLimitMiddleware } from '../rate-limit/rate-limit.middleware';
import { HttpPipelineMiddleware } from './http-pipeline.middleware';
import { JsonBodyMiddleware } from './json-body.middleware';
import { RequestContextMiddleware } from './request-context.middleware';
import { SecurityMiddleware } from './security.middleware';

type Step = (req: Request, res: Response, next: NextFunction) => void | Promise<void>;

/** Four recording steps in the pipeline's four places; each behaves as `behaviour[name]` says, or passes. */
function pipeline(behaviour: Partial<Record<string, Step>> = {}) {
  const ran: string[] = [];
  const step = (name: string): NestMiddleware => ({
    use: (req: Request, res: Response, next: NextFunction) => {
      ran.push(name);
      return (behaviour[name] ?? ((_q, _s, n) => n()))(req, res, next);
    },
  });
  const sut = new HttpPipelineMiddleware(
    step('context') as RequestContextMiddleware,
    step('security') as SecurityMiddleware,
    step('rateLimit') as RateLimitMiddleware,
    step('body') as JsonBodyMiddleware,
  );
  return { sut, ran };
}

const req = {} as Request;
const res = {} as Response;

describe(HttpPipelineMiddleware.name, () => {
  it('runs the steps in order, then passes the request on once', async () => {
    const { sut, ran } = pipeline();
    const next = jest.fn();
    await sut.use(req, res, next);
    expect(ran).toEqual(['context', 'security', 'rateLimit', 'body']);
    expect(next).toHaveBeenCalledTimes(1);
  });

  it('waits for a step that finishes later', async () => {
    const { sut, ran } = pipeline({ rateLimit: (_q, _s, next) => new Promise<void>((resolve) => setTimeout(() => (next(), resolve()), 5)) });
    const next = jest.fn();
    await sut.use(req, res, next);
    expect(ran).toEqual(['context', 'security', 'rateLimit', 'body']);
    expect(next).toHaveBeenCalledTimes(1);
  });

  it('rejects with the error of a step that throws, and runs nothing after it', async () => {
    const refusal = new HttpException('rate limit exceeded', HttpStatus.TOO_MANY_REQUESTS);
    const { sut, ran } = pipeline({
      rateLimit: () => {
        throw refusal;
      },
    });
    const next = jest.fn();
    await expect(sut.use(req, res, next)).rejects.toBe(refusal);
    expect(ran).toEqual(['context', 'security', 'rateLimit']);
    expect(next).not.toHaveBeenCalled();
  });

  it('rejects with the error of a step whose promise rejects', async () => {
    const tooLarge = new HttpException('body too large', HttpStatus.PAYLOAD_TOO_LARGE);
    const { sut, ran } = pipeline({ body: () => Promise.reject(tooLarge) });
    const next = jest.fn();
    await expect(sut.use(req, res, next)).rejects.toBe(tooLarge);
    expect(ran).toEqual(['context', 'security', 'rateLimit', 'body']);
    expect(next).not.toHaveBeenCalled();
  });

  it('ends at a step that answers the request itself', async () => {
    const { sut, ran } = pipeline({ security: () => undefined });
    const next = jest.fn();
    await sut.use(req, res, next);
    expect(ran).toEqual(['context', 'security']);
    expect(next).not.toHaveBeenCalled();
  });
});
