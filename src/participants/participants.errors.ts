import { BadRequestException } from '@nestjs/common';

/** erase and export act within one owner: the organization or the user. */
export class OneOwnerException extends BadRequestException {
  constructor() {
    super('exactly one of orgID, userID is required: the owner whose copies of the person\'s data are meant');
  }
}
