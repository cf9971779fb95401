import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '../auth/current-principal.decorator';
import type { Principal } from '../auth/principal';
import { ApiErrors, ApiResult, errorCase } from '../common/api-responses';
import { Paginated } from '../common/paginated';
import { IdempotencyKey, Idempotent } from '../idempotency/idempotent.decorator';
import { IdempotencyService, IdempotentCall } from '../idempotency/idempotency.service';
import { ReportDto, ReportIdResultDto, ReportShareDto, ReportUnsharedDto } from './dto/report.dto';
import { CreateReportDto, GetReportQueryDto, ListReportsQueryDto, ShareReportDto, UnshareReportDto } from './dto/report-input.dto';
import { ReportsService } from './reports.service';

const NOT_FOUND = errorCase(404, 'report "019a9c20-1a2b-7c3d-8e4f-5a6b7c8d9e0f" not found');
const INTERVIEW_NOT_FOUND = errorCase(404, 'interview "019a8f80-5d6e-7f01-8a23-4b5c6d7e8f90" not found');

@ApiTags('reports')
@ApiBearerAuth()
@Controller('v1/reports')
export class ReportsController {
  constructor(
    private readonly reports: ReportsService,
    private readonly idempotency: IdempotencyService,
  ) {}

  @Post('addOne')
  @Idempotent()
  @HttpCode(201)
  @ApiOperation({
    summary: "Queue a report on an interview's answers",
    description:
      'Queues a report (status queued); the service makes it in the background, in any of its instances, and never on this request: follow it with ' +
      'reports/getOne (status, progress) or the report.completed webhook event. Without an analyst: the built-in offline analysis (deterministic, no ' +
      'network): per question the counts, median words, the sentiment split, keyphrases, themes (groups of similar answers, named by their terms) and ' +
      'representative quotes. With an analyst (an openai agent of INTERVIEWER_AGENTS) the model codes the themes; the server checks every quote ' +
      'against the transcript (a quote that is not verbatim is dropped and counted) and counts theme members itself. 404 when the interview is unknown ' +
      'or not visible.',
  })
  @ApiBody({
    type: CreateReportDto,
    examples: {
      offline: { summary: 'The built-in offline analysis', value: { interviewID: '019a8f80-5d6e-7f01-8a23-4b5c6d7e8f90' } },
      model: { summary: 'Themes coded by a model (an openai agent of INTERVIEWER_AGENTS)', value: { interviewID: '019a8f80-5d6e-7f01-8a23-4b5c6d7e8f90', analyst: 'gpt-analyst' } },
    },
  })
  @ApiResult(ReportIdResultDto, { status: 201, description: "The new report's identifier" })
  @ApiErrors(errorCase(400, 'analyst must be the name of an openai agent of INTERVIEWER_AGENTS (none is configured), or left out for the built-in offline analysis; got "gpt"'), INTERVIEW_NOT_FOUND, 413, 415)
  addOne(@Body() dto: CreateReportDto, @CurrentPrincipal() principal: Principal, @IdempotencyKey() once: IdempotentCall | undefined) {
    return this.idempotency.run(once, () => this.reports.create(dto, principal));
  }

  @Get('getOne')
  @ApiOperation({ summary: 'Return one report', description: 'Its status, progress and, once completed, its result. 404 when unknown or its interview is not visible.' })
  @ApiResult(ReportDto, { description: 'The report' })
  @ApiErrors(400, NOT_FOUND)
  getOne(@Query() query: GetReportQueryDto, @CurrentPrincipal() principal: Principal) {
    return this.reports.getOne(query.reportID, principal);
  }

  @Get('getList')
  @ApiOperation({ summary: 'Return the reports of an interview', description: 'Oldest first, ties by reportID. 404 when the interview is unknown or not visible.' })
  @Paginated(ReportDto, "The interview's reports, oldest first")
  @ApiErrors(400, INTERVIEW_NOT_FOUND)
  getList(@Query() query: ListReportsQueryDto, @CurrentPrincipal() principal: Principal) {
    return this.reports.list(query, principal);
  }

  @Post('share')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Share a report as a web page',
    description:
      'A secret link (a 192-bit shareID) to a self-contained page of the report: counts, a status funnel, per-question sentiment and themes with their ' +
      'quotes, charts drawn in the page, nothing loaded from other hosts, printable. Anyone with the link can read it until it expires; no token. Each call ' +
      'makes another link; reports/unshare ends them all. Only a completed report can be shared (409).',
  })
  @ApiBody({ type: ShareReportDto, examples: { week: { summary: 'A link for a week', value: { reportID: '019a9c20-1a2b-7c3d-8e4f-5a6b7c8d9e0f', expiresInDays: 7 } } } })
  @ApiResult(ReportShareDto, { description: 'The link and when it stops working' })
  @ApiErrors(400, NOT_FOUND, errorCase(409, 'this report is running; only a completed report can be shared'), 413, 415)
  share(@Body() dto: ShareReportDto, @CurrentPrincipal() principal: Principal) {
    return this.reports.share(dto, principal);
  }

  @Post('unshare')
  @HttpCode(200)
  @ApiOperation({ summary: "End every share link of a report", description: 'Their pages answer 404 from now on. 404 when the report is unknown or not visible.' })
  @ApiBody({ type: UnshareReportDto, examples: { all: { summary: 'End every link of a report', value: { reportID: '019a9c20-1a2b-7c3d-8e4f-5a6b7c8d9e0f' } } } })
  @ApiResult(ReportUnsharedDto, { description: 'How many links ended' })
  @ApiErrors(400, NOT_FOUND, 413, 415)
  unshare(@Body() dto: UnshareReportDto, @CurrentPrincipal() principal: Principal) {
    return this.reports.unshare(dto.reportID, principal);
  }
}
