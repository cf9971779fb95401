import { RecordNotFoundException } from '../common/errors';

export class ProductNotFoundException extends RecordNotFoundException {
  constructor(id: string) {
    super('product', id);
  }
}
