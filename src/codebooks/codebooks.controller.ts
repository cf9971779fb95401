import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '../auth/current-principal.decorator';
import type { Principal } from '../auth/principal';
import { ApiErrors, ApiResult, errorCase } from '../common/api-responses';
import { CODEBOOK_LIMITS } from './codebook.limits';
import { CodebooksService } from './codebooks.service';
import { CodebookDto, CodebookUpdatedDto, GetCodebookQueryDto, SetCodebookDto } from './dto/codebook.dto';

const NOT_FOUND = errorCase(404, 'interview "019a8f80-5d6e-7f01-8a23-4b5c6d7e8f90" not found');
const INTERVIEW_ID = '019a8f80-5d6e-7f01-8a23-4b5c6d7e8f90';

/** An interview's codebook (routes under /v1/interviews). */
@ApiTags('interviews')
@ApiBearerAuth()
@Controller('v1/interviews')
export class CodebooksController {
  constructor(private readonly codebooks: CodebooksService) {}

  @Post('setCodebook')
  @HttpCode(200)
  @ApiOperation({
    summary: "Set an interview's codebook",
    description:
      'The themes the team wants the answers of each question coded with. Replaces the whole codebook ([] clears it). Every report made from now on ' +
      'codes against it: its themes keep their labels and order (themeIDs q<k>-c1, q<k>-c2, …), each answer joins the theme it matches (a theme no ' +
      'answer matches stays, with zero counts), and answers that match none are grouped into new themes marked emerging. Read it with getCodebook, ' +
      'edit it (rename, merge two themes into one with both\'s examples, drop one) and set it again; reports/toCodebook makes one from a report. ' +
      `At most ${CODEBOOK_LIMITS.themes} themes a question; a label 1–${CODEBOOK_LIMITS.theme} characters, unique within its question (any case); a ` +
      `description up to ${CODEBOOK_LIMITS.description}; up to ${CODEBOOK_LIMITS.examples} examples of up to ${CODEBOOK_LIMITS.example}. A questionIndex ` +
      'the interview does not ask (interviews/getQuestions), or given twice: 400. 404 when the interview is unknown or not visible.',
  })
  @ApiBody({
    type: SetCodebookDto,
    examples: {
      two: {
        summary: 'Two themes for question 2',
        value: {
          interviewID: INTERVIEW_ID,
          questions: [
            {
              questionIndex: 1,
              themes: [
                { theme: 'Price too high', description: 'The subscription costs too much for what it gives.', examples: ['The price is way too high for two people.'] },
                { theme: 'Late deliveries', examples: ['The box came a day late twice.'] },
              ],
            },
          ],
        },
      },
      clear: { summary: 'No codebook: reports find their own themes', value: { interviewID: INTERVIEW_ID, questions: [] } },
    },
  })
  @ApiResult(CodebookUpdatedDto, { description: 'The codebook was stored' })
  @ApiErrors(errorCase(400, 'questions.0.questionIndex 7 is not a question of this interview: interviews/getQuestions lists questions 0 to 3'), NOT_FOUND, 413, 415)
  setCodebook(@Body() dto: SetCodebookDto, @CurrentPrincipal() principal: Principal) {
    return this.codebooks.set(dto, principal);
  }

  @Get('getCodebook')
  @ApiOperation({
    summary: "Return an interview's codebook",
    description: 'The shape setCodebook takes, every field present (description null, examples [] where unset); questions: [] when the interview has none. 404 when the interview is unknown or not visible.',
  })
  @ApiResult(CodebookDto, { description: 'The codebook' })
  @ApiErrors(400, NOT_FOUND)
  getCodebook(@Query() query: GetCodebookQueryDto, @CurrentPrincipal() principal: Principal) {
    return this.codebooks.get(query.interviewID, principal);
  }
}
