import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { InviteQuality, QualityFlag } from '../invites/invite-quality';
import type { ConversationTurn } from '../invites/invite.entity';
import { InvitesRepository } from '../invites/invites.repository';
import { isComparable } from '../domain/duplicate-answers';
import { AnswerSignals, isLowEffort, qualityWith, signalFlags } from './quality';

/**
 * Quality: what an invite's answers let a team doubt. Judged as each answer is stored (in its
 * transaction) from the answer, the script's counts (used here and not stored) and the interview's
 * other invites; the flags stay once raised.
 */
@Injectable()
export class QualityService {
  constructor(private readonly invites: InvitesRepository) {}

  /**
   * The quality after an answer: `conversation` holds every turn, the new answer among them;
   * `questionIndex` is the guideline question it answers (null: the greeting's or the closing "anything
   * else?", where many people say the same thing, so such answers are not compared with others').
   */
  async afterAnswer(
    db: EntityManager,
    invite: { linkID: string; interviewID: string; quality: InviteQuality | null },
    answer: string,
    questionIndex: number | null,
    conversation: readonly ConversationTurn[],
    signals: AnswerSignals,
  ): Promise<InviteQuality> {
    const raised: QualityFlag[] = signalFlags(answer, signals);
    // A flag stays once raised: an invite already flagged for a duplicate answer is not looked up again.
    const compared = questionIndex !== null && isComparable(answer) && !invite.quality?.flags.includes('duplicate_answer');
    if (compared && (await this.invites.answerElsewhere(db, invite.interviewID, invite.linkID, answer))) raised.push('duplicate_answer');
    const answers = conversation.filter((turn) => turn.role === 'interviewee').map((turn) => turn.content);
    if (answers.filter(isLowEffort).length * 2 > answers.length) raised.push('low_effort');
    return qualityWith(invite.quality, raised);
  }

  /** At the start: an e-mail address another invite of the interview used first flags this one. */
  async atStart(db: EntityManager, invite: { linkID: string; interviewID: string; quality: InviteQuality | null }, email: string | null): Promise<InviteQuality | null> {
    if (!email || !(await this.invites.emailElsewhere(db, invite.interviewID, invite.linkID, email))) return invite.quality;
    return qualityWith(invite.quality, ['duplicate_participant']);
  }
}
