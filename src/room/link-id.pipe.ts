import { Injectable, PipeTransform } from '@nestjs/common';
import { RoomNotFoundException } from './room.errors';
import { LINK_ID_PATTERN } from './room.limits';

/** A path segment that cannot be a linkID is an unknown link (404), never a 400 that repeats it. */
@Injectable()
export class LinkIdPipe implements PipeTransform<string, string> {
  transform(value: string): string {
    if (!LINK_ID_PATTERN.test(value)) throw new RoomNotFoundException();
    return value;
  }
}
