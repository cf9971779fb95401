/**
 * "Textbook Nest" for `npm run bench`: the service's design card written the way a typical NestJS team
 * writes it with stock pieces (see bench/README.md). Self-contained: nothing from src/.
 *
 * Configuration: DATABASE_URL (mysql:// or mariadb://, the service's existing schema), PORT.
 */
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { AppModule } from './app.module';

async function bootstrap(): Promise<void> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule, { logger: ['fatal', 'error', 'warn'] });
  app.set('x-powered-by', false);
  app.set('etag', false);
  app.enableShutdownHooks();
  const port = Number(process.env.PORT ?? 3000);
  await app.listen(port);
  process.stdout.write(`textbook Nest listening on ${port}\n`);
}

bootstrap().catch((error: unknown) => {
  process.stderr.write(`textbook Nest failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
