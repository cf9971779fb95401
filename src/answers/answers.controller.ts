import { Controller, Get, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiExtraModels, ApiOperation, ApiResponse, ApiTags, getSchemaPath } from '@nestjs/swagger';
import { CurrentPrincipal } from '../auth/current-principal.decorator';
import type { Principal } from '../auth/principal';
import { ApiErrors, errorCase } from '../common/api-responses';
import { LIST_MAX_ROWS } from '../common/limits';
import { Paginated } from '../common/paginated';
import { AnswersService } from './answers.service';
import { EXPORT_COLUMNS } from './answers-export';
import { AnswerDto, CodedExportRowDto, ExportRowDto } from './dto/answer.dto';
import { ExportAnswersQueryDto, GetAnswersQueryDto } from './dto/answer-queries.dto';

const NOT_FOUND = errorCase(404, 'interview "019a8f80-5d6e-7f01-8a23-4b5c6d7e8f90" not found');
/** An export has no size limit but the interview's: the schema's bound is what a string may hold. */
const EXPORT_MAX_BYTES = 2 ** 31;

/** An interview's answers, read across its invites' transcripts (routes under /v1/interviews). */
@ApiTags('interviews')
@ApiBearerAuth()
@Controller('v1/interviews')
export class AnswersController {
  constructor(private readonly answers: AnswersService) {}

  @Get('getAnswers')
  @ApiOperation({
    summary: "Return an interview's answers",
    description:
      'One row per interviewee answer, ordered by invite creation then turn, with the question it answers (questionIndex as interviews/getQuestions ' +
      `lists them; null for the closing "anything else" and unattributed turns). Paged like every list; unpaged, at most ${LIST_MAX_ROWS} answers ` +
      '(400 beyond: page them). 404 when the interview is unknown or not visible.',
  })
  @Paginated(AnswerDto, "The interview's answers, oldest invite first")
  @ApiErrors(errorCase(400, 'questionIndex must be from 0 to 50000'), NOT_FOUND)
  getAnswers(@Query() query: GetAnswersQueryDto, @CurrentPrincipal() principal: Principal) {
    return this.answers.list(query, principal);
  }

  @Get('exportAnswers')
  @ApiOperation({
    summary: "Download an interview's answers",
    description:
      'Every answer with its invite (status, startedOn, completedOn, name, email, occupation), as a download (Content-Disposition: attachment), written as ' +
      'it is read: memory stays bounded whatever the size. csv: RFC 4180, a header row, UTF-8 with a byte-order mark; a free-text cell (question, answer, ' +
      "name, email, occupation) that starts with =, +, -, @, a tab or a carriage return is prefixed with ' so that spreadsheet programs show it as text; " +
      `empty cells are nulls. Columns: ${EXPORT_COLUMNS.join(', ')}. jsonl: one JSON object per line with the same keys (ExportRow). Not wrapped in {result}. ` +
      "With reportID (a completed report of this interview), a last column themes: the labels of each answer's themes in that report, " +
      '"; "-separated in CSV (neutralised like free text), an array in JSON Lines (CodedExportRow); [] for an answer in other, null for one the report ' +
      'did not read (given after its asOf). ' +
      '404 when the interview is unknown or not visible.',
  })
  @ApiExtraModels(ExportRowDto, CodedExportRowDto)
  @ApiResponse({
    status: 200,
    description: 'The file',
    headers: { 'Content-Disposition': { description: 'attachment; filename="answers-<interviewID>.csv" (or .jsonl)', schema: { type: 'string', maxLength: 100 } } },
    content: {
      'text/csv': { schema: { type: 'string', maxLength: EXPORT_MAX_BYTES, example: `\uFEFF${EXPORT_COLUMNS.join(',')}\r\n` } },
      'application/x-ndjson': { schema: { type: 'string', maxLength: EXPORT_MAX_BYTES, description: `Lines of ${getSchemaPath(ExportRowDto)} (with reportID: ${getSchemaPath(CodedExportRowDto)})` } },
    },
  })
  @ApiErrors(errorCase(400, 'format must be one of csv, jsonl'), NOT_FOUND, errorCase(409, 'this report is running; only a completed report has codes'))
  exportAnswers(@Query() query: ExportAnswersQueryDto, @CurrentPrincipal() principal: Principal) {
    return this.answers.export(query, principal);
  }
}
