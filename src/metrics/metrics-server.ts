import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Metrics } from './metrics.service';

/**
 * The second listener (METRICS_PORT): GET /metrics in the Prometheus text format, and nothing else. Kept
 * off the public port so that the internals it shows (routes, queues, the process) are only for whoever
 * can reach this port; a plain node:http server, outside Nest's pipeline (no auth, no rate limit, no logs).
 */
@Injectable()
export class MetricsServer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Metrics');
  private server?: Server;

  constructor(private readonly metrics: Metrics) {}

  /** The port it listens on (METRICS_PORT=0 picks one), or null when metrics are off. */
  get port(): number | null {
    return (this.server?.address() as AddressInfo | null | undefined)?.port ?? null;
  }

  async onApplicationBootstrap(): Promise<void> {
    if (this.metrics.port === null) return;
    const server = createServer((req, res) => {
      const path = (req.url ?? '').split('?')[0];
      if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
        res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('not found\n');
        return;
      }
      this.metrics.registry.metrics().then(
        (text) => res.writeHead(200, { 'Content-Type': this.metrics.registry.contentType }).end(req.method === 'HEAD' ? undefined : text),
        (error: unknown) => {
          this.logger.error({ msg: 'metrics scrape failed', error: error instanceof Error ? error.message : String(error) });
          res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' }).end('scrape failed\n');
        },
      );
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.metrics.port!, () => resolve());
    });
    this.server = server;
    this.logger.log({ msg: 'metrics listening', port: this.port });
  }

  async onApplicationShutdown(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
