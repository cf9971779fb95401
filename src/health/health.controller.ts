import { Controller, Get, ServiceUnavailableException } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Public } from '../auth/public.decorator';
import { ApiPublicErrors, errorCase } from '../common/api-responses';
import { DatabaseHealth } from '../database/database-health';
import { ServingState } from './serving-state';

@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(
    private readonly database: DatabaseHealth,
    private readonly serving: ServingState,
  ) {}

  @Public()
  @Get()
  @ApiOperation({
    summary: 'Service and database health',
    description:
      'No token needed. 200 while the database answers (within DB_STATEMENT_TIMEOUT_MS); 503 when it does not, and from the moment the ' +
      'process is told to stop (SIGTERM) while it drains, so that a load balancer stops sending it requests.',
  })
  @ApiOkResponse({
    description: 'The database is reachable',
    schema: {
      type: 'object',
      required: ['result'],
      properties: {
        result: { type: 'object', required: ['status', 'database'], properties: { status: { type: 'string', enum: ['ok'] }, database: { type: 'string', enum: ['up'] } } },
      },
    },
  })
  @ApiPublicErrors(errorCase(503, 'database unavailable'))
  async check(): Promise<{ status: 'ok'; database: 'up' }> {
    if (this.serving.draining) throw new ServiceUnavailableException('shutting down');
    try {
      await this.database.ping();
    } catch {
      throw new ServiceUnavailableException('database unavailable');
    }
    return { status: 'ok', database: 'up' };
  }
}
