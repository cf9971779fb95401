import { OmitType } from '@nestjs/swagger';
import { COMMON_LIMITS } from '../../common/limits';
import { IsTrimmedId, OptionalText, PatchRequiredText, RequiredId } from '../../common/validation';
import { INTERVIEW_LIMITS } from '../../domain/interview.limits';
import { CreateInterviewDto } from './create-interview.dto';

/** Partial update: only the fields present change; null clears an optional field. */
export class UpdateInterviewDto extends OmitType(CreateInterviewDto, ['productID', 'interviewName'] as const) {
  @RequiredId('The interview to update. An interviewID from interviews/addOne or interviews/getList.')
  interviewID: string;

  @PatchRequiredText({
    description: 'Move the interview to another product (visible to the caller, else 404). Allowed only while it has no invites, else 409.',
    example: '019a8f7e-1c2b-7d3e-9f40-2b6c8d9e0a1b',
    max: COMMON_LIMITS.idInput,
  })
  @IsTrimmedId()
  productID?: string;

  @PatchRequiredText({ description: 'New name of the interview.', example: 'Onboarding friction, Q1', max: INTERVIEW_LIMITS.name, notBlank: true })
  interviewName?: string;

  @OptionalText({ description: 'Interviewer agent: a name from GET /v1/interviewers/getList (another is 400, listing the known ones); null or "" resets it to the default agent (DEFAULT_INTERVIEWER).', example: 'default', max: INTERVIEW_LIMITS.interviewer })
  interviewer?: string | null;
}
