import { BadRequestException } from '@nestjs/common';

/** Room for the names within the error message's documented 1,000 characters. */
const KNOWN_NAMES_MAX_CHARS = 700;

export class UnknownInterviewerException extends BadRequestException {
  constructor(name: string, known: readonly string[]) {
    let listed = '';
    let shown = 0;
    for (const agent of known) {
      if (listed.length + agent.length + 2 > KNOWN_NAMES_MAX_CHARS) break;
      listed += (shown++ ? ', ' : '') + agent;
    }
    const more = known.length > shown ? ` and ${known.length - shown} more` : '';
    super(`interviewer ${JSON.stringify(name)} is not a known agent; known agents: ${listed}${more} (GET /v1/interviewers/getList)`);
  }
}
