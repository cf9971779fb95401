import { Controller, Get, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors, ApiResult } from '../common/api-responses';
import { NoParametersDto } from '../common/validation';
import { ModeDto } from './dto/mode.dto';
import { INTERVIEW_MODES } from './voice.limits';
import { VoiceService } from './voice.service';

/** Which interview modes this service can run: beside the interviewer agents, as both are what an interview is conducted with. */
@ApiTags('interviewers')
@ApiBearerAuth()
@Controller('v1/interviewers')
export class VoiceController {
  constructor(private readonly voice: VoiceService) {}

  @Get('getModes')
  @ApiOperation({
    summary: 'Return the interview modes this service can run',
    description:
      '`text` (typed answers) is always available. `voice` (answers spoken in the room, transcribed by an OpenAI-compatible speech server, typing still possible) ' +
      'is available when the service has a transcriber (TRANSCRIBER); `questionsSpokenBy` says whether the interviewer\'s turns are spoken by a speech server ' +
      '(SPEAKER) or by the browser. The same list for every token; it never shows endpoints, models or keys. Takes no parameters.',
  })
  @ApiResult(ModeDto, { isArray: true, maxItems: INTERVIEW_MODES.length, description: 'Each mode, text first' })
  @ApiErrors(400)
  getModes(@Query() _query: NoParametersDto): ModeDto[] {
    return this.voice.modes();
  }
}
