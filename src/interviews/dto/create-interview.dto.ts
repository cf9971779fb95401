import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsInt, IsOptional, Max, Min } from 'class-validator';
import { COMMON_LIMITS } from '../../common/limits';
import { OptionalText, RequiredId, RequiredText } from '../../common/validation';
import { INTERVIEW_LIMITS } from '../interview.limits';

/** The interviewer is not accepted here: a new interview gets the default interviewer agent. */
export class CreateInterviewDto {
  @RequiredId('The product the interview is about; must exist and be visible to the caller (else 404). A productID from products/addOne or products/getList.')
  productID: string;

  @RequiredText({ description: 'Name of the interview.', example: 'Onboarding friction, Q4', max: INTERVIEW_LIMITS.name, notBlank: true })
  interviewName: string;

  @OptionalText({
    description:
      'Insights to extract and questions to ask, one per line. The built-in interviewer asks, in order and as written, only the lines that end with a ' +
      'question mark (?, ？ or ؟) once list markers are stripped; every other line is a note for the team and is never shown to the interviewee. ' +
      'Without any question it asks five general questions about the product.',
    example: 'Goal: onboarding friction (a note: not asked)\n1. How did you first hear about the product?\n2. What almost made you give up?',
    max: INTERVIEW_LIMITS.guidelines,
  })
  guidelines?: string | null;

  @OptionalText({ description: 'User associated with the interview.', example: 'user_42', max: COMMON_LIMITS.ownerId })
  userID?: string | null;

  @ApiPropertyOptional({
    type: 'integer',
    format: 'int32',
    nullable: true,
    minimum: INTERVIEW_LIMITS.retentionDays.min,
    maximum: INTERVIEW_LIMITS.retentionDays.max,
    description:
      'Days an invite of this interview is kept once it is completed, abandoned, expired or revoked; then its interviewee\'s data is erased as ' +
      'participants/erase does (audited as "retention"). Overrides RETENTION_DAYS; null: RETENTION_DAYS (unset: kept).',
  })
  @IsOptional()
  @Min(INTERVIEW_LIMITS.retentionDays.min, { message: `retentionDays must be from ${INTERVIEW_LIMITS.retentionDays.min} to ${INTERVIEW_LIMITS.retentionDays.max}` })
  @Max(INTERVIEW_LIMITS.retentionDays.max, { message: `retentionDays must be from ${INTERVIEW_LIMITS.retentionDays.min} to ${INTERVIEW_LIMITS.retentionDays.max}` })
  // Listed last because class-validator runs decorators bottom-up and stops at the first error.
  @IsInt({ message: 'retentionDays must be a whole number' })
  retentionDays?: number | null;

  @ApiPropertyOptional({
    type: Boolean,
    nullable: true,
    default: false,
    description:
      'true: e-mail addresses, phone numbers, payment card numbers (Luhn-valid), IBANs and IP addresses in an answer become [email], [phone], [card], ' +
      '[iban], [ip] before the answer is stored, logged or sent to any agent; the original is never stored. null: false.',
  })
  @IsOptional()
  @IsBoolean({ message: 'redactPII must be true or false' })
  redactPII?: boolean | null;
}
