import { BadRequestException, ConflictException, Injectable, NotFoundException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { ConversationTurn, Invite, UserInfo } from './invite.entity';
import { CONVERSATION_ROLES, ConversationRole, InviteStatus, MAX_TRANSCRIPT_BYTES, MAX_TURNS } from './invite-status';

export { MAX_TRANSCRIPT_BYTES };

/** Allowed transitions: pending → started → completed; pending | started → expired. */
export const TRANSITIONS: Record<InviteStatus, readonly InviteStatus[]> = {
  pending: ['started', 'expired'],
  started: ['completed', 'expired'],
  completed: [],
  expired: [],
};

const USER_INFO_MAX = 320;

export class InvalidInviteTransitionException extends ConflictException {
  constructor(linkID: string, from: InviteStatus, to: InviteStatus) {
    super(`invite ${linkID} cannot go from ${from} to ${to}`);
  }
}

export class InviteNotFoundException extends NotFoundException {
  constructor(linkID: string) {
    super(`invite ${JSON.stringify(linkID)} not found`);
  }
}

function cleanText(value: unknown, what: string, max: number): string {
  if (typeof value !== 'string') throw new BadRequestException(`${what} must be a string`);
  if (value.includes('\0') || !value.isWellFormed()) throw new BadRequestException(`${what} must not contain NUL characters or unpaired surrogates`);
  if (value.length > max) throw new BadRequestException(`${what} must be at most ${max} characters long`);
  return value;
}

function checkTurns(turns: ConversationTurn[]): ConversationTurn[] {
  return turns.map((turn, i) => {
    if (!CONVERSATION_ROLES.includes(turn.role as ConversationRole)) {
      throw new BadRequestException(`conversation[${i}].role must be one of ${CONVERSATION_ROLES.join(', ')}`);
    }
    return { role: turn.role, content: cleanText(turn.content, `conversation[${i}].content`, MAX_TRANSCRIPT_BYTES) };
  });
}

/**
 * The invite lifecycle: the only code that changes an invite after it is created. Not exposed
 * under /v1 (invites are read-only there); the interview runtime and the demo-data command use it.
 * Every change reads and writes the row in one transaction, with a row lock on MySQL, so that
 * concurrent turns are appended in order and a transition is checked against the current status.
 */
@Injectable()
export class InviteLifecycleService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** pending → started, optionally recording who the interviewee is. */
  start(linkID: string, userInfo?: Partial<UserInfo>): Promise<Invite> {
    return this.change(linkID, (invite) => {
      this.transition(invite, 'started');
      if (userInfo) invite.userInfo = this.mergeUserInfo(invite.userInfo, userInfo);
    });
  }

  /** Appends turns to a started invite's transcript, in order. */
  async appendTurns(linkID: string, turns: ConversationTurn[]): Promise<Invite> {
    const checked = checkTurns(turns);
    return this.change(linkID, (invite) => {
      if (invite.status !== 'started') {
        throw new ConflictException(`invite ${linkID} is ${invite.status}: turns can only be added to a started invite`);
      }
      if (invite.conversation.length + checked.length > MAX_TURNS) {
        throw new BadRequestException(`transcript of invite ${linkID} would exceed ${MAX_TURNS} turns`);
      }
      invite.conversation = [...invite.conversation, ...checked];
      if (Buffer.byteLength(JSON.stringify(invite.conversation), 'utf8') > MAX_TRANSCRIPT_BYTES) {
        throw new BadRequestException(`transcript of invite ${linkID} would exceed ${MAX_TRANSCRIPT_BYTES} bytes`);
      }
    });
  }

  /** Sets or amends what is known of the invited person (pending or started invites). */
  setUserInfo(linkID: string, userInfo: Partial<UserInfo>): Promise<Invite> {
    return this.change(linkID, (invite) => {
      if (invite.status !== 'pending' && invite.status !== 'started') {
        throw new ConflictException(`invite ${linkID} is ${invite.status}: its interviewee can no longer change`);
      }
      invite.userInfo = this.mergeUserInfo(invite.userInfo, userInfo);
    });
  }

  /** started → completed; sets completed_on. */
  complete(linkID: string, at: Date = new Date()): Promise<Invite> {
    return this.change(linkID, (invite) => {
      this.transition(invite, 'completed');
      invite.completedOn = at;
    });
  }

  /** pending | started → expired. */
  expire(linkID: string): Promise<Invite> {
    return this.change(linkID, (invite) => this.transition(invite, 'expired'));
  }

  private transition(invite: Invite, to: InviteStatus): void {
    if (!TRANSITIONS[invite.status].includes(to)) throw new InvalidInviteTransitionException(invite.linkID, invite.status, to);
    invite.status = to;
  }

  private mergeUserInfo(current: UserInfo | null, patch: Partial<UserInfo>): UserInfo {
    const next: UserInfo = { email: current?.email ?? null, name: current?.name ?? null, occupation: current?.occupation ?? null };
    for (const key of ['email', 'name', 'occupation'] as const) {
      const value = patch[key];
      if (value === undefined) continue;
      next[key] = value === null ? null : cleanText(value, `userInfo.${key}`, USER_INFO_MAX);
    }
    return next;
  }

  private change(linkID: string, mutate: (invite: Invite) => void): Promise<Invite> {
    return this.dataSource.transaction(async (em: EntityManager) => {
      const repo = em.getRepository(Invite);
      const invite = await repo.findOne({
        where: { linkID },
        ...(this.dataSource.options.type === 'better-sqlite3' ? {} : { lock: { mode: 'pessimistic_write' as const } }),
      });
      if (!invite) throw new InviteNotFoundException(linkID);
      mutate(invite);
      invite.updatedAt = new Date();
      await repo.update(
        { linkID },
        {
          status: invite.status,
          userInfo: invite.userInfo,
          conversation: invite.conversation,
          completedOn: invite.completedOn,
          updatedAt: invite.updatedAt,
        },
      );
      return invite;
    });
  }
}
