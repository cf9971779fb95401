import { COMMON_LIMITS } from '../../common/limits';
import { OptionalText, RequiredId, RequiredText } from '../../common/validation';
import { INTERVIEW_LIMITS } from '../interview.limits';

/** The interviewer is not accepted here: a new interview gets the default interviewer agent. */
export class CreateInterviewDto {
  @RequiredId('The product the interview is about; must exist and be visible to the caller (else 404).', '019a8f7e-1c2b-7d3e-9f40-2b6c8d9e0a1b')
  productID: string;

  @RequiredText({ description: 'Name of the interview.', example: 'Onboarding friction, Q4', max: INTERVIEW_LIMITS.name, notBlank: true })
  interviewName: string;

  @OptionalText({ description: 'Insights to extract, questions to ask.', example: 'Ask how they first heard of the product.', max: INTERVIEW_LIMITS.guidelines })
  guidelines?: string | null;

  @OptionalText({ description: 'User associated with the interview.', example: 'user_42', max: COMMON_LIMITS.ownerId })
  userID?: string | null;
}
