import { Body, Controller, Get, Headers, HttpCode, Param, Post, Query, UseGuards } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiParam, ApiQuery, ApiTags } from '@nestjs/swagger';
import { Public } from '../auth/public.decorator';
import { ApiPublicErrors, ApiResult, errorCase } from '../common/api-responses';
import { NoParametersDto } from '../common/validation';
import { ReplyDto, StartInterviewDto } from './dto/room-input.dto';
import { ReplyResultDto, SessionDto } from './dto/session.dto';
import { LinkIdPipe } from './link-id.pipe';
import { RoomNotFoundException } from './room.errors';
import { RoomRateLimitGuard } from './room-rate-limit.guard';
import { ROOM_LIMITS } from './room.limits';
import { RoomService } from './room.service';

export const ROOM_TAG = 'interview room';

const NOT_FOUND = errorCase(404, new RoomNotFoundException().message);
const WRONG_STATE = errorCase(409, 'this interview is completed; that needs it started');

/**
 * The interview room's JSON API, for the room's own page and for any front end a team builds: the
 * linkID is the interviewee's credential, so no bearer token. Same envelope and error shape as /v1.
 */
@ApiTags(ROOM_TAG)
@Public()
@UseGuards(RoomRateLimitGuard)
@ApiParam({ name: 'linkID', description: 'The secret of the invite URL (its last path segment).', schema: { type: 'string', pattern: '^[A-Za-z0-9_-]+$', maxLength: 64 } })
@Controller('i/:linkID')
export class RoomController {
  constructor(private readonly room: RoomService) {}

  @Get('session')
  @ApiOperation({
    summary: 'What the link shows',
    description:
      'The interview\'s status, public title, product, the consent text, the room\'s language and direction, the built-in interviewer\'s progress, ' +
      'the transcript so far and when the link expires. Never the guidelines, the organization or user, the interviewer\'s configuration, or anything ' +
      'of another invite. A pending or started invite past expires_on answers as expired. Until the interview starts, its language follows the request ' +
      '(the interview\'s own, else `lang`, then Accept-Language, else en); from the start it is the one recorded.',
  })
  @ApiQuery({ name: 'lang', required: false, description: 'A preferred language tag (as on the invite URL, `/i/{linkID}?lang=es`); unsupported ones are passed over.', schema: { type: 'string', maxLength: 35 } })
  @ApiHeader({ name: 'Accept-Language', required: false, description: "The browser's languages, by quality (e.g. ja-JP,ja;q=0.9,en;q=0.8).", schema: { type: 'string', maxLength: 1000 } })
  @ApiResult(SessionDto, { description: 'The session' })
  @ApiPublicErrors(NOT_FOUND)
  session(@Param('linkID', LinkIdPipe) linkID: string, @Query('lang') lang: unknown, @Headers('accept-language') acceptLanguage: string | undefined) {
    return this.room.session(linkID, { query: lang, acceptLanguage });
  }

  @Post('start')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Start the interview',
    description:
      'pending → started: stores who the interviewee is, records the consent as the transcript\'s first turn ("Consent given <time>: <text>"), ' +
      `and appends the interviewer's opening. The interview is held in the interview's language, else the body's \`language\` (what the page showed), else ` +
      `Accept-Language, else en; it is recorded with the invite and fixed from then on. consent must be true (400). Not pending: 409 naming the status. Bodies over ${ROOM_LIMITS.bodyBytes / 1024} KB: 413.`,
  })
  @ApiResult(SessionDto, { description: 'The session, started' })
  @ApiPublicErrors(400, NOT_FOUND, WRONG_STATE, 413, 415)
  @ApiHeader({ name: 'Accept-Language', required: false, description: 'Used for the language when the body has none and the interview fixes none.', schema: { type: 'string', maxLength: 1000 } })
  start(@Param('linkID', LinkIdPipe) linkID: string, @Body() dto: StartInterviewDto, @Headers('accept-language') acceptLanguage: string | undefined) {
    return this.room.start(linkID, dto, { acceptLanguage });
  }

  @Post('reply')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Answer the interviewer',
    description:
      'Appends the answer and the interviewer\'s next turn in one transaction and returns both. When that turn ends the interview, the same transaction ' +
      'completes the invite and updates the interviewee\'s profile (status completed). Not started (or expired): 409. Answers to one link are handled one at a time, never interleaved.',
  })
  @ApiResult(ReplyResultDto, { description: 'The two new turns' })
  @ApiPublicErrors(400, NOT_FOUND, WRONG_STATE, 413, 415)
  reply(@Param('linkID', LinkIdPipe) linkID: string, @Body() dto: ReplyDto) {
    return this.room.reply(linkID, dto);
  }

  @Post('end')
  @HttpCode(200)
  @ApiOperation({
    summary: 'End the interview early',
    description: 'started → completed; the transcript stays as it is. Send `{}` (or no body) as application/json. Not started (or expired): 409.',
  })
  @ApiResult(SessionDto, { description: 'The session, completed' })
  @ApiPublicErrors(400, NOT_FOUND, WRONG_STATE, 413, 415)
  end(@Param('linkID', LinkIdPipe) linkID: string, @Body() _body: NoParametersDto) {
    return this.room.end(linkID);
  }
}
