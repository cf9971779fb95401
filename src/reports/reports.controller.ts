import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '../auth/current-principal.decorator';
import type { Principal } from '../auth/principal';
import { ApiErrors, ApiResult, errorCase } from '../common/api-responses';
import { Paginated } from '../common/paginated';
import { IdempotencyKey, Idempotent } from '../idempotency/idempotent.decorator';
import { IdempotencyService, IdempotentCall } from '../idempotency/idempotency.service';
import { CodebookDto } from '../codebooks/dto/codebook.dto';
import { LIST_MAX_ROWS } from '../common/limits';
import { CodeRowDto, ReportDto, ReportIdResultDto, ReportShareDto, ReportUnsharedDto } from './dto/report.dto';
import { CreateReportDto, GetCodesQueryDto, GetReportQueryDto, ListReportsQueryDto, ShareReportDto, ToCodebookDto, UnshareReportDto } from './dto/report-input.dto';
import { REPORT_LIMITS } from './reports.limits';
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
      'reports/getOne (status, progress) or the report.completed webhook event. Every answer is coded: each answer of a question belongs to some of its ' +
      'themes or to its other group (reports/getCodes lists them), and every count (a theme\'s answers and mentions, coverage, other) is counted by the ' +
      'server from those codes. Without an analyst: the built-in offline analysis (deterministic, no network): per question the counts, median words, ' +
      'the sentiment split, keyphrases, themes (groups of similar answers, labelled with a phrase of their answers) and representative quotes. With an ' +
      'analyst (an openai agent of INTERVIEWER_AGENTS) the model proposes the themes and codes every answer (up to 3 themes an answer) in batches; ' +
      'the server checks every quote against the transcript (a quote that is not verbatim is dropped and counted) and removes digits from what the model ' +
      `writes. maxThemes (${REPORT_LIMITS.maxThemes.min}–${REPORT_LIMITS.maxThemes.max}, default ${REPORT_LIMITS.maxThemes.default}): at most this many ` +
      'themes per question. When the interview has a codebook (interviews/setCodebook), the report codes against it. language (with an analyst; ' +
      'default en): answers in other languages are translated into it for coding, themes and descriptions are written in it, and each quote keeps ' +
      'its verbatim original with the model\'s translation beside it; the offline analysis finds themes within each language instead. 404 when the ' +
      'interview is unknown or not visible.',
  })
  @ApiBody({
    type: CreateReportDto,
    examples: {
      offline: { summary: 'The built-in offline analysis', value: { interviewID: '019a8f80-5d6e-7f01-8a23-4b5c6d7e8f90' } },
      model: { summary: 'Themes coded by a model (an openai agent of INTERVIEWER_AGENTS)', value: { interviewID: '019a8f80-5d6e-7f01-8a23-4b5c6d7e8f90', analyst: 'gpt-analyst' } },
      fewer: { summary: 'At most 6 themes per question', value: { interviewID: '019a8f80-5d6e-7f01-8a23-4b5c6d7e8f90', maxThemes: 6 } },
      translated: {
        summary: 'A study in several languages, coded by a model in English (answers in German, Japanese, … translated for coding)',
        value: { interviewID: '019a8f80-5d6e-7f01-8a23-4b5c6d7e8f90', analyst: 'gpt-analyst', language: 'en' },
      },
    },
  })
  @ApiResult(ReportIdResultDto, { status: 201, description: "The new report's identifier" })
  @ApiErrors(errorCase(400, 'maxThemes must be a whole number from 2 to 30'), INTERVIEW_NOT_FOUND, 413, 415)
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

  @Get('getCodes')
  @ApiOperation({
    summary: 'Return the codes of every answer a report read',
    description:
      'One row per answer the report read, in the order of interviews/getAnswers (invite creation, then turn): {linkID, questionIndex, turnIndex, ' +
      "themeIDs, answer}. themeIDs are the answer's themes of its own question, in the order of that question's themes ([] when it fell in other). " +
      'questionIndex keeps the answers to one question; themeID those coded with one theme (a themeID of the report: q<k>-t<n>, qx-t<n>, q<k>-c<n>, ' +
      `or all-t<n> for a theme across the interview). Paged like every list; unpaged, at most ${LIST_MAX_ROWS} rows (400 beyond: page them), streamed. ` +
      'An erased interviewee\'s answers are gone. 409 while the report is not completed; 404 when it is unknown or its interview is not visible.',
  })
  @Paginated(CodeRowDto, "The report's coded answers, in getAnswers' order")
  @ApiErrors(errorCase(400, 'themeID must be a themeID of the report, like q1-t2, qx-t1 or q1-c3'), NOT_FOUND, errorCase(409, 'this report is running; only a completed report has codes'))
  getCodes(@Query() query: GetCodesQueryDto, @CurrentPrincipal() principal: Principal) {
    return this.reports.getCodes(query, principal);
  }

  @Post('toCodebook')
  @HttpCode(200)
  @ApiOperation({
    summary: "Make a report's themes its interview's codebook",
    description:
      "Stores the completed report's themes of each question as its interview's codebook (replacing the one there): each theme's label, its description " +
      'and up to 5 of its quotes as examples; the unattributed answers\' themes and questions the interview no longer asks are left out. Returns the ' +
      'codebook, as interviews/getCodebook would. Edit it (rename, merge, drop) with interviews/setCodebook; the next report codes against it. 409 while ' +
      'the report is not completed; 404 when it is unknown or its interview is not visible.',
  })
  @ApiBody({ type: ToCodebookDto, examples: { report: { summary: 'A report\'s themes as the codebook', value: { reportID: '019a9c20-1a2b-7c3d-8e4f-5a6b7c8d9e0f' } } } })
  @ApiResult(CodebookDto, { description: 'The interview\'s codebook now' })
  @ApiErrors(400, NOT_FOUND, errorCase(409, 'this report is running; only a completed report can become a codebook'), 413, 415)
  toCodebook(@Body() dto: ToCodebookDto, @CurrentPrincipal() principal: Principal) {
    return this.reports.toCodebook(dto.reportID, principal);
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
