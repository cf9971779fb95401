import { BadRequestException, NotFoundException } from '@nestjs/common';

/** Base of every resource's "not found" (also answered for records the caller may not see). */
export class RecordNotFoundException extends NotFoundException {
  constructor(kind: string, id: string) {
    super(`${kind} ${JSON.stringify(id)} not found`);
  }
}

/** A request that needs at least one of several fields (list filters, a product's owners). */
export class MissingOneOfException extends BadRequestException {
  constructor(names: string[], what = 'is required') {
    super(`at least one of ${names.join(', ')} ${what}`);
  }
}
