import { Body, Controller, Get, HttpCode, Injectable, Param, PipeTransform, Post, StreamableFile, UseGuards, UseInterceptors } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiOperation, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import { Public } from '../auth/public.decorator';
import { ApiPublicErrors, ApiResult, errorCase } from '../common/api-responses';
import { INVITE_LIMITS } from '../domain/invite.limits';
import { AUDIO_TYPES, VOICE_LIMITS } from '../voice/voice.limits';
import type { Recording } from '../voice/voice.service';
import { AudioBodyInterceptor } from './audio-body.interceptor';
import { ReplyResultDto } from './dto/session.dto';
import { LinkIdPipe } from './link-id.pipe';
import { ROOM_TAG } from './room.controller';
import { NoSpeechHereException, RoomNotFoundException } from './room.errors';
import { RoomRateLimitGuard } from './room-rate-limit.guard';
import { RoomService } from './room.service';

/** A turn index in a path: anything that cannot be one is a turn that does not exist (404), like an unknown link. */
@Injectable()
export class TurnIndexPipe implements PipeTransform<string, number> {
  transform(value: string): number {
    if (!/^\d{1,6}$/.test(value) || Number(value) >= INVITE_LIMITS.turns) throw new NoSpeechHereException();
    return Number(value);
  }
}

const NOT_FOUND = errorCase(404, new RoomNotFoundException().message);
const AUDIO_SCHEMA = { type: 'string', format: 'binary', maxLength: VOICE_LIMITS.audioBytes };

/**
 * The room's voice: spoken answers in, spoken questions out. Same credential (the linkID), rate limits
 * and error shape as the rest of the room; the recording is the request body itself (not JSON), read
 * by AudioBodyInterceptor once the rate limits have let the request through.
 */
@ApiTags(ROOM_TAG)
@Public()
@UseGuards(RoomRateLimitGuard)
@ApiParam({ name: 'linkID', description: 'The secret of the invite URL (its last path segment).', schema: { type: 'string', pattern: '^[A-Za-z0-9_-]+$', maxLength: 64 } })
@Controller('i/:linkID')
export class RoomVoiceController {
  constructor(private readonly room: RoomService) {}

  @Post('audio')
  @HttpCode(200)
  @UseInterceptors(AudioBodyInterceptor)
  @ApiOperation({
    summary: 'Answer the interviewer by voice',
    description:
      'The recording of the answer is the request body, as the browser\'s MediaRecorder made it (WebM/Opus, Ogg/Opus, MP4/AAC) or an MP3 or WAV file, with ' +
      `its Content-Type (parameters such as \`;codecs=opus\` allowed; another type: 415). Over ${VOICE_LIMITS.audioBytes / (1024 * 1024)} MiB or ` +
      `${VOICE_LIMITS.audioSeconds} s: 413 (the length is read from WAV, Ogg and MP4 containers, else from the transcriber's answer). The service transcribes ` +
      'it in the invite\'s language and stores the text as the answer exactly as /reply does (redacted first when the interview has redactPII), answering what ' +
      '/reply answers. When the transcriber fails or takes too long: 503 with Retry-After and nothing stored; send the same recording again. No speech ' +
      'recognised: 400. Only for a started voice interview (a text one: 409). The recording is kept with the invite when the interview has keepAudio, ' +
      'otherwise it is never written anywhere.',
  })
  @ApiConsumes(...AUDIO_TYPES)
  @ApiBody({ description: 'The recording', schema: AUDIO_SCHEMA })
  @ApiResult(ReplyResultDto, { description: 'The two new turns: the transcribed answer as stored, then the interviewer\'s' })
  @ApiPublicErrors(
    errorCase(400, 'no speech was recognised in the recording: record the answer again, or type it'),
    NOT_FOUND,
    errorCase(409, 'this interview is held in text, not by voice: send the answer as text to /reply'),
    errorCase(413, `the recording is longer than ${VOICE_LIMITS.audioSeconds} seconds`),
    errorCase(415, `Content-Type must be one of ${AUDIO_TYPES.join(', ')} (parameters such as ;codecs=opus allowed)`),
    errorCase(503, 'the recording could not be transcribed just now; nothing was stored: send it again shortly, or type the answer'),
  )
  audio(@Param('linkID', LinkIdPipe) linkID: string, @Body() recording: Recording) {
    // Read by AudioBodyInterceptor: the bytes and their type.
    return this.room.answerAudio(linkID, recording);
  }

  @Get('speech/:turnIndex')
  @ApiOperation({
    summary: 'An interviewer turn, spoken',
    description:
      'The interviewer\'s turn at `turnIndex` of the conversation as audio from the service\'s speech server (SPEAKER), for a voice interview that is started ' +
      'or completed (the closing turn is spoken after the interview completed). Not an interviewer turn, another status, a text interview, or no speech ' +
      'server (the session\'s questionsSpokenBy is then `browser`): 404. The speech server failing: 503.',
  })
  @ApiParam({ name: 'turnIndex', description: 'The turn\'s 0-based index in the conversation (as the session lists it).', schema: { type: 'integer', format: 'int32', minimum: 0, maximum: INVITE_LIMITS.turns - 1 } })
  @ApiResponse({ status: 200, description: 'The turn as audio (MP3 unless the speech server answers another audio type)', content: { 'audio/mpeg': { schema: AUDIO_SCHEMA } } })
  @ApiPublicErrors(errorCase(404, new NoSpeechHereException().message), errorCase(503, 'the question could not be spoken just now'))
  speech(@Param('linkID', LinkIdPipe) linkID: string, @Param('turnIndex', TurnIndexPipe) turnIndex: number): Promise<StreamableFile> {
    return this.room.speech(linkID, turnIndex);
  }
}
