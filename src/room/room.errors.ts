import { NotFoundException } from '@nestjs/common';

/**
 * No interview behind this link. The message does not repeat the link: a linkID is a secret, and an
 * error message must never carry one.
 */
export class RoomNotFoundException extends NotFoundException {
  constructor() {
    super('there is no interview at this link; check that you copied all of it');
  }
}
