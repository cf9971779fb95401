import { Controller, Get, ServiceUnavailableException } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Public } from '../auth/public.decorator';
import { ApiPublicErrors, errorCase } from '../common/api-responses';
import { HealthCheckService } from '@nestjs/terminus';
import { DatabaseIndicator } from './database.indicator';
import { ServingState } from './serving-state';

const okSchema = (properties: Record<string, { type: 'string'; enum: string[] }>) => ({
  type: 'object',
  required: ['result'],
  properties: { result: { type: 'object', required: Object.keys(properties), properties } },
  example: { result: Object.fromEntries(Object.entries(properties).map(([key, p]) => [key, p.enum[0]])) },
});

@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly database: DatabaseIndicator,
    private readonly serving: ServingState,
  ) {}

  @Public()
  @Get()
  @ApiOperation({
    summary: 'Service and database health',
    description:
      'No token needed. 200 while the database answers (within DB_STATEMENT_TIMEOUT_MS); 503 when it does not, and from the moment the ' +
      'process is told to stop (SIGTERM) while it drains, so that a load balancer stops sending it requests. The same as /health/ready.',
  })
  @ApiOkResponse({ description: 'The database is reachable', schema: okSchema({ status: { type: 'string', enum: ['ok'] }, database: { type: 'string', enum: ['up'] } }) })
  @ApiPublicErrors(errorCase(503, 'database unavailable'))
  check(): Promise<{ status: 'ok'; database: 'up' }> {
    return this.ready();
  }

  @Public()
  @Get('ready')
  @ApiOperation({
    summary: 'Readiness: whether to send this instance requests',
    description:
      'No token needed. For orchestrators and load balancers: 200 while the database answers (within DB_STATEMENT_TIMEOUT_MS) and the ' +
      'process is not draining; 503 otherwise.',
  })
  @ApiOkResponse({ description: 'Ready for requests', schema: okSchema({ status: { type: 'string', enum: ['ok'] }, database: { type: 'string', enum: ['up'] } }) })
  @ApiPublicErrors(errorCase(503, 'database unavailable'))
  async ready(): Promise<{ status: 'ok'; database: 'up' }> {
    if (this.serving.draining) throw new ServiceUnavailableException('shutting down');
    try {
      // Terminus answers its own shape and throws its own 503 when an indicator is down; the contract's is ours.
      await this.health.check([() => this.database.isHealthy()]);
    } catch {
      throw new ServiceUnavailableException('database unavailable');
    }
    return { status: 'ok', database: 'up' };
  }

  /**
   * Liveness asks only whether the process answers: a database outage or a drain is no reason to restart
   * it (a restart would not bring the database back, and would cut the drain short).
   */
  @Public()
  @Get('live')
  @ApiOperation({
    summary: 'Liveness: whether the process answers',
    description: 'No token needed. 200 whenever the process can answer, also while the database is down or the process drains; it touches nothing.',
  })
  @ApiOkResponse({ description: 'The process answers', schema: okSchema({ status: { type: 'string', enum: ['ok'] } }) })
  @ApiPublicErrors()
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }
}
