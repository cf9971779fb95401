import { BadRequestException } from '@nestjs/common';

/**
 * Where a page of answers ended: its last answer's invite (creation time and linkID, the invites'
 * order) and turn. Opaque to clients, like every list's cursor.
 */
export function encodeAnswerCursor(inviteCreatedAt: Date, last: { linkID: string; turnIndex: number }): string {
  return Buffer.from(JSON.stringify([inviteCreatedAt.toISOString(), last.linkID, last.turnIndex]), 'utf8').toString('base64url');
}

export function decodeAnswerCursor(cursor: string): { createdAt: Date; linkID: string; turnIndex: number } {
  try {
    const [iso, linkID, turnIndex] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    const createdAt = new Date(iso as string);
    if (typeof iso !== 'string' || typeof linkID !== 'string' || !Number.isInteger(turnIndex) || (turnIndex as number) < 0 || Number.isNaN(createdAt.getTime())) {
      throw new Error('shape');
    }
    return { createdAt, linkID, turnIndex: turnIndex as number };
  } catch {
    throw new BadRequestException('cursor is not valid');
  }
}
