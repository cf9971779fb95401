import { RecordNotFoundException } from '../common/errors';

export class ProfileNotFoundException extends RecordNotFoundException {
  constructor(id: string) {
    super('profile', id);
  }
}
