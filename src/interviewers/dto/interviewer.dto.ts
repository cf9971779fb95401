import { ApiProperty } from '@nestjs/swagger';
import { INTERVIEWER_KINDS } from '../interviewer-agent';
import { INTERVIEWER_LIMITS, INTERVIEWER_NAME_PATTERN } from '../interviewer.limits';

export class InterviewerDto {
  @ApiProperty({
    minLength: 1,
    maxLength: INTERVIEWER_LIMITS.name,
    pattern: INTERVIEWER_NAME_PATTERN.source,
    example: 'default',
    description: 'The name an interview\'s `interviewer` field takes (interviews/updateOne).',
  })
  interviewer: string;

  @ApiProperty({
    enum: INTERVIEWER_KINDS,
    example: 'builtin',
    description: '`builtin`: the deterministic, offline `default` agent. `openai`: a model on an OpenAI-compatible chat-completions server.',
  })
  kind: string;

  @ApiProperty({ type: String, nullable: true, maxLength: INTERVIEWER_LIMITS.description, example: 'GPT interviewer for onboarding studies' })
  description: string | null;
}
