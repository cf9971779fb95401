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
}
