import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '../auth/current-principal.decorator';
import type { Principal } from '../auth/principal';
import { ApiErrors, ApiResult, errorCase } from '../common/api-responses';
import { IdempotencyKey, Idempotent } from '../idempotency/idempotent.decorator';
import { IdempotencyService, IdempotentCall } from '../idempotency/idempotency.service';
import { Paginated } from '../common/paginated';
import { CreateInterviewDto } from './dto/create-interview.dto';
import { GetInterviewQueryDto, GetQuestionsQueryDto, ListInterviewsQueryDto } from './dto/interview-queries.dto';
import { InterviewDto, InterviewIdResultDto, InterviewUpdatedDto, QuestionDto } from './dto/interview.dto';
import { UpdateInterviewDto } from './dto/update-interview.dto';
import { INTERVIEW_LIMITS } from '../domain/interview.limits';
import { InterviewsService } from './interviews.service';

const NOT_FOUND = errorCase(404, 'interview "019a8f80-5d6e-7f01-8a23-4b5c6d7e8f90" not found');
const PRODUCT_NOT_FOUND = errorCase(404, 'product "019a8f7e-1c2b-7d3e-9f40-2b6c8d9e0a1b" not found');

@ApiTags('interviews')
@ApiBearerAuth()
@Controller('v1/interviews')
export class InterviewsController {
  constructor(
    private readonly interviews: InterviewsService,
    private readonly idempotency: IdempotencyService,
  ) {}

  @Post('addOne')
  @Idempotent()
  @HttpCode(201)
  @ApiOperation({
    summary: 'Create an interview',
    description: 'Creates an interview about a product the caller can see (else 404). The interviewer is set to the default agent; it is not accepted here.',
  })
  @ApiBody({
    type: CreateInterviewDto,
    examples: {
      questions: {
        summary: 'An interview with two questions (only lines ending with ? are asked)',
        value: {
          productID: '019a8f7e-1c2b-7d3e-9f40-2b6c8d9e0a1b',
          interviewName: 'Onboarding friction, Q4',
          guidelines: 'Goal: onboarding friction (a note: not asked)\n1. How did you first hear about the product?\n2. What almost made you give up?',
        },
      },
      minimal: { summary: 'An interview about a product (the built-in interviewer asks its general questions)', value: { productID: '019a8f7e-1c2b-7d3e-9f40-2b6c8d9e0a1b', interviewName: 'Onboarding friction, Q4' } },
      panel: {
        summary: 'Fieldwork in German for a panel: a public title, its own consent, and the panel\'s completion URL',
        value: {
          productID: '019a8f7e-1c2b-7d3e-9f40-2b6c8d9e0a1b',
          interviewName: 'DACH onboarding, panel wave 2',
          guidelines: '1. Wie haben Sie zum ersten Mal von Acme Notes gehört?\n2. Was hätte Sie in der ersten Woche fast aufgeben lassen?',
          language: 'de',
          publicTitle: 'Ihre erste Woche mit Acme Notes',
          consentText: 'Acme Research führt dieses Interview für Acme Notes. Ihre Antworten werden aufgezeichnet und 90 Tage aufbewahrt.',
          completionRedirectUrl: 'https://panel.example/complete?pid=4711',
        },
      },
      translated: {
        summary: 'One study in English, German and Japanese: each interviewee is asked the questions in their language (question k is question k)',
        value: {
          productID: '019a8f7e-1c2b-7d3e-9f40-2b6c8d9e0a1b',
          interviewName: 'Onboarding in three markets',
          guidelines: '1. How did you first hear about Acme Notes?\n2. What almost made you give up in the first week?',
          language: 'auto',
          translations: {
            de: '1. Wie haben Sie zum ersten Mal von Acme Notes gehört?\n2. Was hätte Sie in der ersten Woche fast aufgeben lassen?',
            ja: '1. Acme Notes を最初に知ったきっかけは何ですか？\n2. 最初の一週間で、やめそうになったことは何ですか？',
          },
        },
      },
      auto: {
        summary: 'Each interviewee in their own language (?lang= on the link, else the browser\'s)',
        value: { productID: '019a8f7e-1c2b-7d3e-9f40-2b6c8d9e0a1b', interviewName: 'Global onboarding study', language: 'auto' },
      },
    },
  })
  @ApiResult(InterviewIdResultDto, { status: 201, description: 'The new interview\'s identifier' })
  @ApiErrors(400, PRODUCT_NOT_FOUND, 413, 415)
  addOne(@Body() dto: CreateInterviewDto, @CurrentPrincipal() principal: Principal, @IdempotencyKey() once: IdempotentCall | undefined) {
    return this.idempotency.run(once, () => this.interviews.create(dto, principal));
  }

  @Post('updateOne')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Update an interview',
    description:
      'Partial update: only the fields present change; null clears an optional field; interviewer null or "" resets to the default agent. Moving to another product is allowed only while the interview has no invites (else 409).',
  })
  @ApiBody({
    type: UpdateInterviewDto,
    examples: {
      rename: { summary: 'Rename an interview (every field left out stays as it is)', value: { interviewID: '019a8f80-5d6e-7f01-8a23-4b5c6d7e8f90', interviewName: 'Onboarding friction, Q1' } },
      language: { summary: 'Hold every invite in Japanese', value: { interviewID: '019a8f80-5d6e-7f01-8a23-4b5c6d7e8f90', language: 'ja' } },
      translations: {
        summary: 'Replace the translations of the guidelines (null clears them); each must hold as many questions as the guidelines',
        value: { interviewID: '019a8f80-5d6e-7f01-8a23-4b5c6d7e8f90', translations: { es: '1. ¿Cómo conoció Acme Notes?\n2. ¿Qué casi le hizo abandonar en la primera semana?' } },
      },
      redirect: {
        summary: 'Send finished interviewees back to the panel (status=completed or abandoned is added)',
        value: { interviewID: '019a8f80-5d6e-7f01-8a23-4b5c6d7e8f90', completionRedirectUrl: 'https://panel.example/complete?pid=4711' },
      },
      defaults: {
        summary: 'Back to the defaults: the browser\'s language, the interview name, the service\'s consent, no redirect',
        value: { interviewID: '019a8f80-5d6e-7f01-8a23-4b5c6d7e8f90', language: 'auto', publicTitle: null, consentText: null, completionRedirectUrl: null },
      },
    },
  })
  @ApiResult(InterviewUpdatedDto, { description: 'The interview was updated' })
  @ApiErrors(400, NOT_FOUND, errorCase(409, 'interview "019a8f80-5d6e-7f01-8a23-4b5c6d7e8f90" already has invites and cannot move to another product'), 413, 415)
  updateOne(@Body() dto: UpdateInterviewDto, @CurrentPrincipal() principal: Principal) {
    return this.interviews.update(dto, principal);
  }

  @Get('getOne')
  @ApiOperation({ summary: 'Return one interview', description: 'Every Interview field, null where unset. 404 when unknown or its product is not visible.' })
  @ApiResult(InterviewDto, { description: 'The interview' })
  @ApiErrors(400, NOT_FOUND)
  getOne(@Query() query: GetInterviewQueryDto, @CurrentPrincipal() principal: Principal) {
    return this.interviews.getOne(query.interviewID, principal);
  }

  @Get('getQuestions')
  @ApiOperation({
    summary: "Return the questions the interviewer asks",
    description:
      'The questions the built-in interviewer asks, 0-based: the lines of the guidelines that end with a question mark (?, ？ or ؟), their list markers ' +
      'stripped, or its general set about the product when the guidelines hold none. Answers (getAnswers) and reports refer to questions by this index, ' +
      'so a team can check its guidelines before sending links. With `language`, the questions as an invite held in that language is asked them: ' +
      'the translation into it (translations) when there is one, else the base questions; question k is question k in every language. ' +
      '404 when unknown or its product is not visible.',
  })
  @ApiResult(QuestionDto, { isArray: true, maxItems: INTERVIEW_LIMITS.guidelines, description: 'The questions, in the order they are asked' })
  @ApiErrors(400, NOT_FOUND)
  async getQuestions(@Query() query: GetQuestionsQueryDto, @CurrentPrincipal() principal: Principal) {
    return (await this.interviews.questionsFor(principal, query.interviewID, query.language)).questions;
  }

  @Get('getList')
  @ApiOperation({ summary: 'Return interviews of a product', description: 'Oldest first, ties by interviewID. 404 when the product is unknown or not visible.' })
  @Paginated(InterviewDto, 'The product\'s interviews, oldest first')
  @ApiErrors(400, PRODUCT_NOT_FOUND)
  getList(@Query() query: ListInterviewsQueryDto, @CurrentPrincipal() principal: Principal) {
    return this.interviews.list(query, principal);
  }
}
