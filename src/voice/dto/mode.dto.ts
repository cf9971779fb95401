import { ApiProperty } from '@nestjs/swagger';
import { INTERVIEW_MODES, InterviewMode } from '../voice.limits';

/** Who speaks a voice interview's interviewer turns (null in a text one), as the mode and the room's session show it. */
export const QUESTIONS_SPOKEN_BY = { type: String, nullable: true, enum: ['server', 'browser', null], example: 'server' };
export type QuestionsSpokenBy = 'server' | 'browser' | null;

/** An interview mode and whether this service can run it. */
export class ModeDto {
  @ApiProperty({ enum: INTERVIEW_MODES, example: 'voice', description: 'What an interview\'s `mode` may be set to (interviews/addOne, interviews/updateOne).' })
  mode: InterviewMode;

  @ApiProperty({
    type: Boolean,
    example: true,
    description: '`text` always; `voice` only when the service has a transcriber (TRANSCRIBER). Setting an interview to a mode that is not available is 400.',
  })
  available: boolean;

  @ApiProperty({
    ...QUESTIONS_SPOKEN_BY,
    description:
      'For `voice`: how the room speaks the interviewer\'s turns: `server` when the service has a speech server (SPEAKER; audio from GET /i/{linkID}/speech/{turnIndex}), ' +
      '`browser` when the room uses the browser\'s own speech synthesis. null for `text` (nothing is spoken).',
  })
  questionsSpokenBy: QuestionsSpokenBy;
}
