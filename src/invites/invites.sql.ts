import { rawDate } from '../database/column-types';
import type { InviteDto } from './dto/invite.dto';
import type { InviteStatus } from './invite-status';

/** The invite reads in plain SQL ('?' placeholders work on both drivers); see products.sql.ts. */
export const INVITE_COLUMNS =
  'i.link_id AS linkID, i.interview_id AS interviewID, i.product_id AS productID, i.org_id AS orgID, i.user_info AS userInfo, ' +
  'i.status AS status, i.created_at AS createdAt, i.completed_on AS completedOn, i.expires_on AS expiresAt, i.conversation AS conversation';

/** The invite with its product's owners, which decide who may see it. */
export const INVITE_WITH_OWNER_BY_ID = `SELECT ${INVITE_COLUMNS}, p.org_id AS ownerOrgID, p.user_id AS ownerUserID
  FROM invites i INNER JOIN products p ON p.id = i.product_id WHERE i.link_id = ?`;

export const INVITE_LIST = `SELECT ${INVITE_COLUMNS} FROM invites i`;
export const INVITE_KEYS = { created: 'i.created_at', id: 'i.link_id' } as const;

/** Rows per INSERT statement: 1,000 rows of 6 parameters stay under SQLite's variable limit. */
export const INVITE_INSERT_CHUNK = 1000;

/**
 * One INSERT of `rows` new pending invites, 7 parameters per row: link_id, interview_id, product_id,
 * org_id, created_at, updated_at, expires_on. The constant columns are inlined.
 */
export function inviteInsertSql(rows: number): string {
  return (
    'INSERT INTO invites (link_id, interview_id, product_id, org_id, created_at, updated_at, expires_on, user_info, status, completed_on, conversation) VALUES ' +
    new Array<string>(rows).fill("(?, ?, ?, ?, ?, ?, ?, NULL, 'pending', NULL, '[]')").join(', ')
  );
}

/** An invite as the SQL above reads it: JSON still as text, times as the driver gives them. */
export interface InviteRow {
  linkID: string;
  interviewID: string;
  productID: string;
  orgID: string | null;
  userInfo: string | null;
  status: InviteStatus;
  createdAt: Date | string;
  completedOn: Date | string | null;
  expiresAt: Date | string;
  conversation: string;
}

export function inviteFromRow(r: InviteRow): InviteDto {
  return {
    linkID: r.linkID,
    interviewID: r.interviewID,
    productID: r.productID,
    orgID: r.orgID,
    userInfo: r.userInfo === null ? null : JSON.parse(r.userInfo),
    status: r.status,
    timestamp: rawDate(r.createdAt).toISOString(),
    completed_on: r.completedOn === null ? null : rawDate(r.completedOn).toISOString(),
    expires_on: rawDate(r.expiresAt).toISOString(),
    conversation: JSON.parse(r.conversation),
  };
}

/**
 * An invite with what the interview room shows and what its interviewer agent needs: the interview's
 * name, guidelines and agent, the product's name, description and image, and the product's owning
 * user (the owner of the interviewee's profile when the invite has no organization).
 */
export const ROOM_INVITE_BY_ID = `SELECT ${INVITE_COLUMNS},
  iv.name AS interviewName, iv.guidelines AS guidelines, iv.interviewer AS interviewer,
  p.name AS productName, p.description AS productDesc, p.image_link AS productImage, p.user_id AS productUserID
  FROM invites i INNER JOIN interviews iv ON iv.id = i.interview_id INNER JOIN products p ON p.id = i.product_id WHERE i.link_id = ?`;

/** What the room reads with an invite: its interview and its product. */
export interface RoomContext {
  interviewName: string;
  guidelines: string | null;
  interviewer: string;
  productName: string;
  productDesc: string | null;
  productImage: string | null;
  productUserID: string | null;
}

export interface RoomInviteRow extends InviteRow, RoomContext {}

/** What a change checks before it writes: the row as it is now, locked until the transaction ends on MySQL. */
export const INVITE_STATE_FOR_UPDATE = 'SELECT status, conversation, expires_on AS expiresAt FROM invites WHERE link_id = ?';

/** Due for the sweep: pending or started past expires_on, oldest first (the caller appends the lock clause). */
export const INVITES_DUE_TO_EXPIRE = "SELECT link_id AS linkID FROM invites WHERE status IN ('pending', 'started') AND expires_on <= ? ORDER BY expires_on LIMIT ?";
