import { BadRequestException, HttpException, HttpStatus, NotFoundException } from '@nestjs/common';

/** A recruitment setting that contradicts another (400), naming the field. */
export class RecruitmentSettingException extends BadRequestException {
  constructor(field: string, rule: string) {
    super(`${field} ${rule}`);
  }
}

/** An interview with no recruitment set (404 on getRecruitment: nothing to show). */
export class RecruitmentNotFoundException extends NotFoundException {
  constructor(interviewID: string) {
    super(`interview ${JSON.stringify(interviewID)} has no recruitment: set one with interviews/setRecruitment`);
  }
}

/** An open link that leads nowhere (the page says so, never repeating it). */
export class OpenLinkNotFoundException extends NotFoundException {
  constructor() {
    super('this study link does not exist');
  }
}

/** An open link whose recruitment is closed: 410 Gone, a page saying so. */
export class StudyClosedException extends HttpException {
  constructor() {
    super('this study is closed', HttpStatus.GONE);
  }
}

/** An open link opened without the panel's participant id (or with one that is not an id). */
export class MissingParticipantException extends BadRequestException {
  constructor(param: string) {
    super(`the study link needs the participant id in its ${param} parameter (1 to 128 characters, no spaces at either end)`);
  }
}
