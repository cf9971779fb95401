import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { EXACT_TEXT, LONG_BLOB, TIMESTAMP } from '../database/column-types';
import { Invite } from './invite.entity';
import { INVITE_LIMITS } from '../domain/invite.limits';

/**
 * A voice answer's recording, kept with its invite when the interview has keepAudio: one row per part
 * (AUDIO_PART_BYTES each, numbered from 0), so that no INSERT outgrows MySQL's max_allowed_packet
 * (mysql2 sends a binary parameter as hex text, twice its size). Keyed by the invite and the answer's
 * turnIndex in its conversation. In the database only, never in files; erased and deleted with the
 * invite's transcript (participants' erasure, retention, interviews/products deleteOne).
 */
@Entity('invite_audio')
export class InviteAudio {
  @PrimaryColumn({ name: 'link_id', type: 'varchar', length: INVITE_LIMITS.linkId, ...EXACT_TEXT })
  linkID: string;

  // RESTRICT: the code that deletes invites deletes their audio first, and counts what it deletes.
  @ManyToOne(() => Invite, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'link_id', foreignKeyConstraintName: 'fk_invite_audio_invite' })
  invite?: Invite;

  @PrimaryColumn({ name: 'turn_index', type: 'integer' })
  turnIndex: number;

  @PrimaryColumn({ type: 'integer' })
  part: number;

  /** The recording's media type as the room received it (audio/webm, ...), without parameters. */
  @Column({ name: 'content_type', type: 'varchar', length: 32 })
  contentType: string;

  // A part is 1 MiB: LONG_BLOB holds 16 MB.
  @Column({ type: LONG_BLOB })
  data: Buffer;

  @Column({ name: 'created_at', ...TIMESTAMP })
  createdAt: Date;
}
