import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '../auth/current-principal.decorator';
import type { Principal } from '../auth/principal';
import { ApiErrors, ApiResult, errorCase } from '../common/api-responses';
import { GetRecruitmentQueryDto, RecruitmentDto, SetRecruitmentDto } from './dto/recruitment.dto';
import { RECRUITMENT_LIMITS } from './recruitment.limits';
import { RecruitmentService } from './recruitment.service';

const INTERVIEW_ID = '019a8f80-5d6e-7f01-8a23-4b5c6d7e8f90';
const NOT_FOUND = errorCase(404, `interview "${INTERVIEW_ID}" not found`);

/** The documented setRecruitment of a Prolific study; the e2e suites recruit with its screener question. */
export const PROLIFIC_EXAMPLE = {
  interviewID: INTERVIEW_ID,
  open: true,
  participantParam: 'PROLIFIC_PID',
  passthrough: ['STUDY_ID', 'SESSION_ID'],
  limit: 200,
  screener: [
    {
      screenerID: 'frequency',
      question: 'How often do you order meal kits?',
      multiple: false,
      options: [
        { option: 'Weekly', qualifies: true },
        { option: 'Monthly', qualifies: true },
        { option: 'Never', qualifies: false },
      ],
    },
  ],
  quotas: [{ quotaID: 'weekly', screenerID: 'frequency', options: ['Weekly'], max: 100 }],
  redirects: {
    completed: 'https://app.prolific.com/submissions/complete?cc=C1A2B3C4',
    screenout: 'https://app.prolific.com/submissions/complete?cc=SCREEN01',
    overquota: 'https://app.prolific.com/submissions/complete?cc=FULL0001',
    quality: 'https://app.prolific.com/submissions/complete?cc=QUAL0001',
  },
};

/** An interview's recruitment through panels (routes under /v1/interviews). */
@ApiTags('interviews')
@ApiBearerAuth()
@Controller('v1/interviews')
export class RecruitmentController {
  constructor(private readonly recruitment: RecruitmentService) {}

  @Post('setRecruitment')
  @HttpCode(200)
  @ApiOperation({
    summary: "Set an interview's recruitment through panels",
    description:
      'The open study link (openURL, /s/{openID}: the same across updates) that a panel sends its participants to, with the panel\'s participant id in ' +
      'the participantParam query parameter (default pid). Each call replaces the whole settings. A new participant answers the screener (when there is ' +
      'one) before the consent: not qualified → an invite in status screenedout; their quota cell or the limit full (completed invites plus those started ' +
      `and not yet ended; a pending invite the open link made holds its place for ${RECRUITMENT_LIMITS.pendingHoldMinutes} minutes) → overquota; else an ` +
      'invite (source open) and on to its room. The same participant id again returns to the same invite. Each outcome goes to its redirect, with {pid} ' +
      'and {<passthrough name>} replaced (URL-encoded); a flagged invite that completes goes to `quality`. open: false closes the link (HTTP 410 page, no ' +
      'invite). Redirects: https without credentials, placeholders only after the host, only {pid} and passthrough names (400 otherwise). Quotas name a ' +
      'screener question and its options (400 otherwise). 404 when the interview is unknown or not visible.',
  })
  @ApiBody({
    type: SetRecruitmentDto,
    examples: {
      prolific: {
        summary: 'Prolific, a screener and a quota',
        value: PROLIFIC_EXAMPLE,
      },
      cint: {
        summary: 'A Cint/Lucid-style panel (RID)',
        value: {
          interviewID: INTERVIEW_ID,
          open: true,
          participantParam: 'RID',
          redirects: {
            completed: 'https://samplicio.us/s/ClientCallBack.aspx?RIS=10&RID={pid}',
            screenout: 'https://samplicio.us/s/ClientCallBack.aspx?RIS=20&RID={pid}',
            overquota: 'https://samplicio.us/s/ClientCallBack.aspx?RIS=40&RID={pid}',
            quality: 'https://samplicio.us/s/ClientCallBack.aspx?RIS=30&RID={pid}',
          },
        },
      },
    },
  })
  @ApiResult(RecruitmentDto, { description: 'The recruitment as stored, with its openURL' })
  @ApiErrors(errorCase(400, 'quotas.0.screenerID "age" is not a question of the screener (frequency)'), NOT_FOUND, 413, 415)
  setRecruitment(@Body() dto: SetRecruitmentDto, @CurrentPrincipal() principal: Principal) {
    return this.recruitment.set(dto, principal);
  }

  @Get('getRecruitment')
  @ApiOperation({
    summary: "Return an interview's recruitment",
    description: 'The settings as setRecruitment stored them, every field present (null or [] where unset), with the openURL. 404 when the interview is unknown, not visible, or has no recruitment.',
  })
  @ApiResult(RecruitmentDto, { description: 'The recruitment' })
  @ApiErrors(400, NOT_FOUND)
  getRecruitment(@Query() query: GetRecruitmentQueryDto, @CurrentPrincipal() principal: Principal) {
    return this.recruitment.get(query.interviewID, principal);
  }
}
