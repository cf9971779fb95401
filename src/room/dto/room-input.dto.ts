import { ApiProperty } from '@nestjs/swagger';
import { applyDecorators } from '@nestjs/common';
import { Equals, IsDefined, IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { LANGUAGE_TAGS } from '../../languages/languages';
import { TrimmedEmailAddress, OptionalText, RequiredText } from '../../common/validation';
import { ROOM_LIMITS } from '../room.limits';

export class StartInterviewDto {
  @RequiredText({ description: "The interviewee's name; the interviewer greets them by its first word.", example: 'Ada Lovelace', max: ROOM_LIMITS.name, notBlank: true })
  name: string;

  @ApiProperty({ type: String, format: 'email', maxLength: ROOM_LIMITS.email, example: 'ada@example.com', description: 'Finds the same profile when this person is interviewed again.' })
  @IsDefined({ message: 'email is required' })
  @MaxLength(ROOM_LIMITS.email, { message: `email must be at most ${ROOM_LIMITS.email} characters long` })
  @TrimmedEmailAddress()
  email: string;

  @OptionalText({ description: 'What the interviewee does for a living (optional).', example: 'Analyst', max: ROOM_LIMITS.occupation })
  occupation?: string | null;

  @ApiProperty({ type: Boolean, enum: [true], description: 'Must be true: the interviewee agrees to the consent text shown with the form.' })
  @IsDefined({ message: 'consent is required: the interview starts only once you agree' })
  @Equals(true, { message: 'consent must be true: the interview starts only once you agree' })
  consent: true;

  @ApiPropertyOptional({
    enum: LANGUAGE_TAGS,
    example: 'ja',
    description: "The language the page showed (the session's `language`): the interview is held and recorded in it. Ignored when the interview fixes its language; absent: chosen as for the session.",
  })
  @IsOptional()
  @IsString({ message: 'language must be a string' })
  @IsIn(LANGUAGE_TAGS, { message: `language must be one of ${LANGUAGE_TAGS.join(', ')}` })
  language?: string;
}

/** A count the room's script measured, a whole number from 0 to `max`. */
function SignalCount(description: string, example: number, max: number): PropertyDecorator {
  const rule = `$property must be a whole number from 0 to ${max}`;
  return applyDecorators(
    ApiPropertyOptional({ type: 'integer', format: 'int32', minimum: 0, maximum: max, example, description }),
    IsOptional(),
    IsInt({ message: rule }),
    Min(0, { message: rule }),
    Max(max, { message: rule }),
  );
}

export class ReplyDto {
  @RequiredText({ description: "The interviewee's answer.", example: 'Mostly on Monday mornings, to plan the week.', max: ROOM_LIMITS.answer, notBlank: true })
  content: string;

  @SignalCount('Characters the interviewee typed into this answer (the room\'s script counts keystrokes that insert text). Used for the quality checks, not stored.', 41, ROOM_LIMITS.signalChars)
  typedChars?: number;

  @SignalCount('Characters pasted into this answer. Used for the quality checks, not stored.', 0, ROOM_LIMITS.signalChars)
  pastedChars?: number;

  @SignalCount('Milliseconds from the question shown to the answer sent. Used for the quality checks, not stored.', 23000, ROOM_LIMITS.signalMs)
  durationMs?: number;
}
