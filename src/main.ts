import './config/load-env';
import { Logger } from '@nestjs/common';
import { createApp } from './app.factory';
import { AppConfig } from './config/app-config';
import { ConfigError } from './config/config-error';
import { TokensService } from './auth/tokens.service';

async function bootstrap(): Promise<void> {
  const app = await createApp();
  const config = app.get(AppConfig);
  await app.listen(config.port);
  const logger = new Logger('Bootstrap');
  logger.log({ msg: 'listening', port: config.port, database: config.database.kind, docs: `http://localhost:${config.port}/docs` });

  // A fresh embedded database gets one admin token, printed once, so a newcomer can explore.
  if (config.database.kind === 'sqlite') {
    const tokens = app.get(TokensService);
    if ((await tokens.count()) === 0) {
      const { token } = await tokens.create({ isAdmin: true, name: 'first-run admin' });
      process.stdout.write(
        `\nFirst run on a fresh embedded database: an admin token to explore with (shown only this once):\n\n  ${token}\n\n` +
          `Open http://localhost:${config.port}/docs, press Authorize and paste it.\n\n`,
      );
    }
  }
}

bootstrap().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    process.stderr.write(`Configuration error: ${error.message}\n`);
  } else {
    process.stderr.write(`Failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  }
  process.exit(1);
});
