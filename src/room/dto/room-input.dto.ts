import { ApiProperty } from '@nestjs/swagger';
import { Equals, IsDefined, IsEmail, MaxLength } from 'class-validator';
import { IsCleanText, OptionalText, RequiredText } from '../../common/validation';
import { ROOM_LIMITS } from '../room.limits';

export class StartInterviewDto {
  @RequiredText({ description: "The interviewee's name; the interviewer greets them by its first word.", example: 'Ada Lovelace', max: ROOM_LIMITS.name, notBlank: true })
  name: string;

  @ApiProperty({ type: String, format: 'email', maxLength: ROOM_LIMITS.email, example: 'ada@example.com', description: 'Finds the same profile when this person is interviewed again.' })
  @IsDefined({ message: 'email is required' })
  @MaxLength(ROOM_LIMITS.email, { message: `email must be at most ${ROOM_LIMITS.email} characters long` })
  @IsCleanText()
  @IsEmail({}, { message: 'email must be an email address, like name@example.com' })
  email: string;

  @OptionalText({ description: 'What the interviewee does for a living (optional).', example: 'Analyst', max: ROOM_LIMITS.occupation })
  occupation?: string | null;

  @ApiProperty({ type: Boolean, enum: [true], description: 'Must be true: the interviewee agrees to the consent text shown with the form.' })
  @IsDefined({ message: 'consent is required: the interview starts only once you agree' })
  @Equals(true, { message: 'consent must be true: the interview starts only once you agree' })
  consent: true;
}

export class ReplyDto {
  @RequiredText({ description: "The interviewee's answer.", example: 'Mostly on Monday mornings, to plan the week.', max: ROOM_LIMITS.answer, notBlank: true })
  content: string;
}
