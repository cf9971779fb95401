import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { EXACT_TEXT } from '../database/column-types';
import { COMMON_LIMITS } from '../common/limits';
import { INVITE_LIMITS } from '../domain/invite.limits';
import { Invite } from './invite.entity';

/**
 * The SHA-256 of the e-mail address an invite was started with, kept beside its userInfo so that the
 * duplicate-participant check (an address another invite of the interview started with first) is one
 * index lookup, where a scan of every started invite's userInfo grew with the interview. One row per
 * invite, written in the start's transaction; erased and deleted with the invite's userInfo
 * (participants' erasure, retention, interviews/products deleteOne). A digest of an address is the
 * person's too, so it goes wherever the address goes.
 */
@Entity('invite_email_digests')
@Index('idx_invite_email_digests_lookup', ['interviewID', 'digest'])
export class InviteEmailDigest {
  @PrimaryColumn({ name: 'link_id', type: 'varchar', length: INVITE_LIMITS.linkId, ...EXACT_TEXT })
  linkID: string;

  // RESTRICT: the code that erases or deletes invites deletes their digests first.
  @ManyToOne(() => Invite, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'link_id', foreignKeyConstraintName: 'fk_invite_email_digests_invite' })
  invite?: Invite;

  /** The invite's interview, repeated here so that the lookup needs no join. */
  @Column({ name: 'interview_id', type: 'varchar', length: COMMON_LIMITS.uuid, ...EXACT_TEXT })
  interviewID: string;

  /** SHA-256 of the address trimmed and lower-cased (normalEmail), as 64 lower-case hex digits. */
  @Column({ type: 'varchar', length: 64, ...EXACT_TEXT })
  digest: string;
}
