import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { EXACT_TEXT } from '../database/column-types';
import { COMMON_LIMITS } from '../common/limits';
import { INVITE_LIMITS } from '../domain/invite.limits';
import { Invite } from './invite.entity';

/**
 * The SHA-256 of each interviewee turn long enough to be compared (isComparable), kept beside the
 * transcript so that the duplicate-answer check (an answer equal to another invite's in the interview)
 * is one index lookup, however many invites and transcripts the interview holds, where a scan of every
 * transcript grew with both. Rows of shorter answers written before (the migration's backfill) match
 * nothing and do no harm. Keyed like
 * invite_audio by the invite and the turn's index in its conversation; written in the transaction that
 * stores the turn, erased and deleted with the invite's transcript (participants' erasure, retention,
 * interviews/products deleteOne). A digest is of the person's words, so it goes wherever they go.
 */
@Entity('invite_answer_digests')
@Index('idx_invite_answer_digests_lookup', ['interviewID', 'digest'])
export class InviteAnswerDigest {
  @PrimaryColumn({ name: 'link_id', type: 'varchar', length: INVITE_LIMITS.linkId, ...EXACT_TEXT })
  linkID: string;

  // RESTRICT: the code that erases or deletes invites deletes their digests first.
  @ManyToOne(() => Invite, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'link_id', foreignKeyConstraintName: 'fk_invite_answer_digests_invite' })
  invite?: Invite;

  @PrimaryColumn({ name: 'turn_index', type: 'integer' })
  turnIndex: number;

  /** The invite's interview, repeated here so that the lookup needs no join. */
  @Column({ name: 'interview_id', type: 'varchar', length: COMMON_LIMITS.uuid, ...EXACT_TEXT })
  interviewID: string;

  /** SHA-256 of the turn's content exactly as stored, as 64 lower-case hex digits. */
  @Column({ type: 'varchar', length: 64, ...EXACT_TEXT })
  digest: string;
}
