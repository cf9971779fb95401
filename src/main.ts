import './config/load-env';
import { stopTracing } from './tracing/tracing';
import { Logger } from '@nestjs/common';
import { createApp } from './app.factory';
import { AppConfig } from './config/app-config';
import { ConfigError } from './config/config-error';
import { firstTokenCommand } from './auth/token-hint';
import { TokensService } from './auth/tokens.service';
import { ServingState } from './health/serving-state';
import { flushLogsWithin } from './common/logging';

async function bootstrap(): Promise<void> {
  tolerateClosedOutput();
  const app = await createApp();
  const config = app.get(AppConfig);
  await app.listen(config.port);
  const logger = new Logger('Bootstrap');
  const database = config.database.kind === 'sqlite' ? 'sqlite' : config.database.flavor;
  logger.log({ msg: 'listening', port: config.port, database, docs: `http://localhost:${config.port}/docs` });
  stopOnSignals(app, config, logger);

  // Nobody can call the API without a token: say how to get one. A fresh embedded database gets one admin
  // token, printed once, so that a newcomer can explore straight away.
  const tokens = app.get(TokensService);
  if ((await tokens.count()) > 0) return;
  if (config.database.kind === 'sqlite') {
    const { token } = await tokens.create({ isAdmin: true, name: 'first-run admin' });
    process.stdout.write(
      `\nFirst run on a fresh embedded database: an admin token to explore with (shown only this once):\n\n  ${token}\n\n` +
        `Open http://localhost:${config.port}/docs, press Authorize and paste it.\n\n`,
    );
  } else {
    const { command, masked } = firstTokenCommand(process.env.DATABASE_URL);
    process.stdout.write(
      '\nThis database has no API token yet, so no request to /v1 can succeed. Create an admin token with the same DATABASE_URL:\n\n' +
        `  ${command}\n\n` +
        (masked ? 'Put the database password where it says PASSWORD (it is not printed here).\n' : '') +
        `It is printed once; open http://localhost:${config.port}/docs, press Authorize and paste it.\n\n`,
    );
  }
}

/** How long the last log lines may take to reach a reader that is slow or gone, at exit. */
const FINAL_FLUSH_MS = 1000;

/**
 * SIGTERM or SIGINT: drain first (SHUTDOWN_DRAIN_MS: /health answers 503 so that a load balancer stops
 * sending, while requests that still arrive are served), then the graceful close: stop accepting, finish
 * the requests in flight, answer kept-alive connections with 503 + Connection: close, close the pool,
 * and exit 0 (Nest's own hooks would re-raise the signal, which orchestrators read as a failure).
 * A second signal cuts the drain short; one during the close gives up on it.
 *
 * Shutdown always ends: after the drain, the close gets SHUTDOWN_GRACE_MS, then whatever it still waits
 * for is given up (said in the log, where the log can still be written) and the process exits 1. The
 * last log lines get FINAL_FLUSH_MS to reach standard output; a reader that stopped reading cannot keep
 * the process any longer.
 */
function stopOnSignals(app: Awaited<ReturnType<typeof createApp>>, config: AppConfig, logger: Logger): void {
  let cutDrain: (() => void) | undefined;
  let waitingFor: string | undefined;
  const exit = (code: number): never => {
    flushLogsWithin(FINAL_FLUSH_MS);
    process.exit(code);
  };
  const giveUp = (why: string): void => {
    logger.error({ msg: 'shutdown gave up', waitingFor, why });
    exit(1);
  };
  const stop = async (signal: string): Promise<void> => {
    if (waitingFor === 'drain') return cutDrain?.();
    if (waitingFor !== undefined) return giveUp(`a second ${signal}`);
    waitingFor = 'drain';
    app.get(ServingState).drain();
    logger.log({ msg: 'stopping', signal, drainMs: config.shutdownDrainMs, graceMs: config.shutdownGraceMs });
    await new Promise<void>((resolve) => {
      cutDrain = resolve;
      setTimeout(resolve, config.shutdownDrainMs).unref();
    });
    // Not unref'd: this timer is what ends a close that never does.
    setTimeout(() => giveUp(`the close took longer than SHUTDOWN_GRACE_MS (${config.shutdownGraceMs} ms)`), config.shutdownGraceMs);
    try {
      waitingFor = 'the application to close (listener, requests in flight, background work, database pool, worker threads)';
      await app.close();
      waitingFor = 'the traces to be sent';
      await stopTracing();
      exit(0);
    } catch (error) {
      logger.error({ msg: 'shutdown failed', waitingFor, error: error instanceof Error ? error.message : String(error) });
      exit(1);
    }
  };
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, (s) => void stop(s));
}

/**
 * Standard output and error may be pipes whose reader is gone (a parent that exited): writing to them
 * fails with EPIPE, an 'error' event that would otherwise crash the process. What cannot be written is
 * dropped; the service carries on.
 */
function tolerateClosedOutput(): void {
  for (const stream of [process.stdout, process.stderr]) stream.on('error', () => undefined);
}

bootstrap().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    process.stderr.write(`Configuration error: ${error.message}\n`);
  } else {
    process.stderr.write(`Failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  }
  flushLogsWithin(FINAL_FLUSH_MS);
  process.exit(1);
});
