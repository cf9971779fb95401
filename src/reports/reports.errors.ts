import { BadRequestException, ConflictException } from '@nestjs/common';
import { RecordNotFoundException } from '../common/errors';
import type { ReportStatus } from './reports.limits';

export class ReportNotFoundException extends RecordNotFoundException {
  constructor(id: string) {
    super('report', id);
  }
}

/** Only a completed report can be shared (409): there is nothing to show yet, or nothing at all. */
export class ReportNotCompletedException extends ConflictException {
  constructor(status: ReportStatus, what = 'can be shared') {
    super(`this report is ${status}; only a completed report ${what}`);
  }
}

/** The analyst must be an `openai` interviewer agent (400), listing those there are. */
export class UnknownAnalystException extends BadRequestException {
  constructor(analyst: string, known: string[]) {
    super(`analyst must be the name of an openai agent of INTERVIEWER_AGENTS (${known.length ? known.join(', ') : 'none is configured'}), or left out for the built-in offline analysis; got ${JSON.stringify(analyst)}`);
  }
}
