import type { INestApplication } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import { DataSource } from 'typeorm';
import { createApp } from '../../src/app.factory';
import { loadConfig } from '../../src/config/app-config';
import { TokensService } from '../../src/auth/tokens.service';
import { buildOpenApiDocument } from '../../src/swagger';
import { OpenApiResponseValidator } from './openapi-validator';
import { PrismResponseValidator } from './prism-validator';

export interface TestApp {
  app: INestApplication;
  /** supertest against the app; every response is checked against the OpenAPI document, by our validator and by Prism's. */
  http: TestAgent;
  responses: OpenApiResponseValidator;
  prism: PrismResponseValidator;
  db: DataSource;
  tokens: TokensService;
  close(): Promise<void>;
}

/**
 * Boots the application through the same factory as main.ts, against the e2e database. `env` adds to
 * or overrides the environment for this app only.
 */
export async function startApp(env: Record<string, string> = {}): Promise<TestApp> {
  const app = await createApp(loadConfig({ ...process.env, ...env }));
  await app.init();
  const document = buildOpenApiDocument(app);
  const responses = new OpenApiResponseValidator(document as never);
  const prism = await PrismResponseValidator.create(document);
  return {
    app,
    http: validating(request(app.getHttpServer()), responses, prism),
    responses,
    prism,
    db: app.get(DataSource),
    tokens: app.get(TokensService),
    close: async () => {
      await app.close();
      // A response that contradicts the published document fails the suite that saw it.
      expect([...responses.violations, ...prism.violations]).toEqual([]);
    },
  };
}

/**
 * The preamble of a suite: an app booted before its tests (with an admin token) and closed after them.
 * `bind` receives both, e.g. `useTestApp((app) => ({ t, admin } = app))`.
 */
export function useTestApp(bind: (app: { t: TestApp; admin: string }) => unknown, env: Record<string, string> = {}): void {
  let t: TestApp | undefined;
  beforeAll(async () => {
    t = await startApp(env);
    await bind({ t, admin: await adminToken(t) });
  });
  afterAll(async () => {
    await t?.close();
  });
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete', 'options', 'head'] as const;

/** Wraps a supertest agent so every response passes through both OpenAPI validators. */
function validating(agent: TestAgent, validator: OpenApiResponseValidator, prism: PrismResponseValidator): TestAgent {
  return new Proxy(agent, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (typeof prop !== 'string' || !(METHODS as readonly string[]).includes(prop)) return value;
      return (url: string) => {
        const test = (value as (u: string) => request.Test).call(target, url);
        test.on('response', (res: request.Response) => {
          // A download read as bytes (a test's own parser) is text to the document: a string body.
          const body: unknown = Buffer.isBuffer(res.body) ? res.body.toString('utf8') : res.body;
          validator.check(prop, url, res.status, res.headers['content-type'], body);
          prism.check(prop, url, res.status, res.headers as Record<string, string>, body);
        });
        return test;
      };
    },
  });
}

/** A string unique to this test run, for org and user ids that no other test touches. */
export function uniq(prefix: string): string {
  return `${prefix}_${randomUUID().slice(0, 8)}`;
}

export async function adminToken(t: TestApp): Promise<string> {
  return (await t.tokens.create({ isAdmin: true, name: 'e2e admin' })).token;
}

export async function scopedToken(t: TestApp, scope: { orgID?: string; userID?: string }): Promise<string> {
  return (await t.tokens.create({ ...scope, name: 'e2e scoped' })).token;
}

export const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

/** Row counts of every table, to prove a refused request wrote nothing. */
export async function tableCounts(db: DataSource): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const table of ['products', 'interviews', 'invites', 'profiles', 'profile_products', 'api_tokens', 'webhooks', 'webhook_deliveries', 'webhook_attempts', 'reports', 'report_shares', 'report_codes', 'codebooks', 'erasures']) {
    const [row] = await db.query(`SELECT COUNT(*) AS n FROM ${table}`);
    out[table] = Number(row.n);
  }
  return out;
}

/** The error envelope every failure must have. */
export function expectError(res: { status: number; body: unknown }, status: number, message?: RegExp): void {
  expect({ status: res.status, body: res.body }).toEqual({
    status,
    body: { error: status, message: expect.any(String) },
  });
  if (message) expect((res.body as { message: string }).message).toMatch(message);
}

/** The /v1 routes the running app registered, as "METHOD /path". */
export function registeredRoutes(t: TestApp): string[] {
  const express = t.app.getHttpAdapter().getInstance();
  const stack: { route?: { path: string; methods: Record<string, boolean> } }[] = (express.router ?? express._router).stack;
  const out: string[] = [];
  for (const layer of stack) {
    // Middleware mounted on a pattern (v1/*path) shows up as a route too: handlers have no wildcard.
    if (!layer.route || !layer.route.path.startsWith('/v1/') || layer.route.path.includes('*')) continue;
    for (const [method, on] of Object.entries(layer.route.methods)) if (on && method !== '_all') out.push(`${method.toUpperCase()} ${layer.route.path}`);
  }
  return out;
}
