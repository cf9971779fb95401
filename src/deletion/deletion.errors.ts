import { ConflictException } from '@nestjs/common';

/** interviews/deleteOne without cascade on an interview that has invites. */
export class InterviewHasInvitesException extends ConflictException {
  constructor(interviewID: string, invites: number) {
    super(`interview ${JSON.stringify(interviewID)} has ${invites} invite(s); send "cascade": true to delete them (with their transcripts and reports) too`);
  }
}

/** products/deleteOne without cascade on a product that has interviews. */
export class ProductHasInterviewsException extends ConflictException {
  constructor(productID: string, interviews: number) {
    super(`product ${JSON.stringify(productID)} has ${interviews} interview(s); send "cascade": true to delete them (with their invites, transcripts and reports) too`);
  }
}
