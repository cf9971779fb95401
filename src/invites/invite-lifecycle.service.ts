import { BadRequestException, ConflictException, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { validateInput } from '../common/validation';
import { FOR_UPDATE } from '../database/column-types';
import { TurnsInput, UserInfoInput } from './dto/lifecycle-input.dto';
import { ConversationTurn, Invite, UserInfo } from './invite.entity';
import { InviteStatus, TRANSITIONS } from './invite-status';
import { INVITE_LIMITS } from './invite.limits';
import { InvalidInviteTransitionException, InviteNotFoundException } from './invites.errors';

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
  async start(linkID: string, userInfo?: UserInfoInput): Promise<Invite> {
    const info = userInfo === undefined ? undefined : validateInput(UserInfoInput, userInfo);
    return this.change(linkID, (invite) => {
      this.transition(invite, 'started');
      if (info) invite.userInfo = mergeUserInfo(invite.userInfo, info);
    });
  }

  /** Appends turns to a started invite's transcript, in order. */
  async appendTurns(linkID: string, turns: ConversationTurn[]): Promise<Invite> {
    const checked = validateInput(TurnsInput, { turns } as TurnsInput).turns.map(({ role, content }) => ({ role, content }));
    return this.change(linkID, (invite) => {
      if (invite.status !== 'started') {
        throw new ConflictException(`invite ${linkID} is ${invite.status}: turns can only be added to a started invite`);
      }
      if (invite.conversation.length + checked.length > INVITE_LIMITS.turns) {
        throw new BadRequestException(`transcript of invite ${linkID} would exceed ${INVITE_LIMITS.turns} turns`);
      }
      invite.conversation = [...invite.conversation, ...checked];
      if (Buffer.byteLength(JSON.stringify(invite.conversation), 'utf8') > INVITE_LIMITS.transcriptBytes) {
        throw new BadRequestException(`transcript of invite ${linkID} would exceed ${INVITE_LIMITS.transcriptBytes} bytes`);
      }
    });
  }

  /** Sets or amends what is known of the invited person (pending or started invites). */
  async setUserInfo(linkID: string, userInfo: UserInfoInput): Promise<Invite> {
    const info = validateInput(UserInfoInput, userInfo);
    return this.change(linkID, (invite) => {
      if (invite.status !== 'pending' && invite.status !== 'started') {
        throw new ConflictException(`invite ${linkID} is ${invite.status}: its interviewee can no longer change`);
      }
      invite.userInfo = mergeUserInfo(invite.userInfo, info);
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

  private change(linkID: string, mutate: (invite: Invite) => void): Promise<Invite> {
    return this.dataSource.transaction(async (db) => {
      const repo = db.getRepository(Invite);
      const invite = await repo.findOne({ where: { linkID }, ...FOR_UPDATE });
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

/** Fields present in the patch replace what is known; null clears one; absent ones stay. */
function mergeUserInfo(current: UserInfo | null, patch: UserInfoInput): UserInfo {
  const next: UserInfo = { email: current?.email ?? null, name: current?.name ?? null, occupation: current?.occupation ?? null };
  for (const key of ['email', 'name', 'occupation'] as const) {
    if (patch[key] !== undefined) next[key] = patch[key];
  }
  return next;
}
