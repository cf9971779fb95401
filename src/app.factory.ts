import { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { AppModule } from './app.module';
import { createLogger } from './common/logger';
import { ResultEnvelopeAdapter } from './common/result-envelope.adapter';
import { AppConfig, loadConfig } from './config/app-config';
import { setupSwagger } from './swagger';

/**
 * Builds the application exactly as production runs it: main.ts and the e2e tests both call this.
 * Nest's own body parser is off because JsonBodyMiddleware (registered in AppModule) parses bodies.
 */
export async function createApp(config: AppConfig = loadConfig()): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config), new ResultEnvelopeAdapter(), {
    bodyParser: false,
    logger: createLogger(config),
    // A failure while building the app rejects (main.ts prints it and exits 1) instead of process.abort().
    abortOnError: false,
    // On shutdown, requests arriving on kept-alive connections get 503 + Connection: close
    // instead of being served, so a chatty client cannot keep the process alive past SIGTERM.
    return503OnClosing: true,
  });
  app.set('x-powered-by', false);
  app.set('query parser', 'simple');
  // Express would hash every response body for a weak ETag; API clients here do not revalidate.
  app.set('etag', false);
  setupSwagger(app as INestApplication);
  return app;
}
