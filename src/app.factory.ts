import { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import helmet from 'helmet';
import { Logger } from 'nestjs-pino';
import { AppModule } from './app.module';
import { StartupSummaryLogger } from './common/logging';
import { AppConfig, loadConfig } from './config/app-config';
import { tracingEnabled } from './config/tracing-env';
import { setupSwagger } from './swagger';
import { requestSpan } from './tracing/request-span';

/**
 * Builds the application exactly as production runs it: main.ts and the e2e tests both call this.
 * Bodies are parsed by the middleware of the modules that take them (jsonBody), after the request id,
 * the log and the rate limit: see json-body.ts.
 */
export async function createApp(config: AppConfig = loadConfig()): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config), {
    bodyParser: false,
    bufferLogs: true,
    // A failure while building the app rejects (main.ts prints it and exits 1) instead of process.abort().
    abortOnError: false,
    // On shutdown, requests arriving on kept-alive connections get 503 + Connection: close
    // instead of being served, so a chatty client cannot keep the process alive past SIGTERM.
    return503OnClosing: true,
    cors:
      config.corsOrigins.length > 0
        ? {
            origin: config.corsOrigins.includes('*') ? '*' : config.corsOrigins,
            allowedHeaders: ['Authorization', 'Content-Type', 'Idempotency-Key', 'X-Request-Id'],
            exposedHeaders: ['X-Request-Id', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'Retry-After'],
          }
        : false,
  });
  app.useLogger(new StartupSummaryLogger(app.get(Logger)));
  // With tracing on, a request's span comes first, so that its time and children include everything after.
  if (tracingEnabled()) app.use(requestSpan);
  // Security headers on every response, the first thing each request meets (after its span), as Nest's security guide
  // applies helmet; upgrade-insecure-requests would send Swagger UI's assets to https on a plain-http
  // deployment.
  app.use(helmet({ contentSecurityPolicy: { directives: { upgradeInsecureRequests: null } } }));
  app.set('x-powered-by', false);
  // req.ip (rate limits, the room's per-address limit, metrics, traces) is the client only behind the
  // proxies TRUST_PROXY names; unset, a client's own X-Forwarded-For is ignored.
  app.set('trust proxy', config.trustProxy);
  app.set('query parser', 'simple');
  // Express would hash every response body for a weak ETag; API clients here do not revalidate.
  app.set('etag', false);
  setupSwagger(app as INestApplication);
  return app;
}
