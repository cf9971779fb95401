import { ForbiddenException } from '@nestjs/common';

/** A write that would leave the record outside the caller's scope. */
export class OutOfScopeException extends ForbiddenException {
  constructor(what: string) {
    super(`${what} would not be visible to this token afterwards; a token may only write within its own organization or user`);
  }
}
