import { Controller, Get, ServiceUnavailableException } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiResponse, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Public } from '../auth/public.decorator';
import { ErrorResponseDto } from '../common/error-response.dto';

const PROBE_TIMEOUT_MS = 2000;

@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  @Public()
  @Get()
  @ApiOperation({ summary: 'Service and database health', description: 'No token needed. 200 when the database answers within 2 s, 503 when it does not.' })
  @ApiOkResponse({
    description: 'The database is reachable',
    schema: {
      type: 'object',
      properties: { result: { type: 'object', properties: { status: { type: 'string', enum: ['ok'] }, database: { type: 'string', enum: ['up'] } } } },
    },
  })
  @ApiServiceUnavailableResponse({ description: 'The database is unreachable', type: ErrorResponseDto })
  @ApiResponse({ status: 429, description: 'Too many probes from one address (see Retry-After)', type: ErrorResponseDto })
  @ApiResponse({ status: 500, description: 'Unexpected error', type: ErrorResponseDto })
  async check(): Promise<{ status: 'ok'; database: 'up' }> {
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        // A real table, not SELECT 1: an embedded database answers SELECT 1 without touching its file.
        this.dataSource.query('SELECT 1 FROM migrations LIMIT 1'),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error('timeout')), PROBE_TIMEOUT_MS);
        }),
      ]);
    } catch {
      throw new ServiceUnavailableException('database unavailable');
    } finally {
      clearTimeout(timer);
    }
    return { status: 'ok', database: 'up' };
  }
}
