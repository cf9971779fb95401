/**
 * The SQL the baselines of `npm run bench` run: the same statements as the service's repositories
 * (src/products/products.repository.ts, src/interviews/interviews.repository.ts,
 * src/invites/invites.repository.ts), written out here because the service exports its SQL to no one.
 * '?' placeholders and backticks work on mysql2.
 */
import type { InviteStatus } from '../../src/domain/invite-status';
import type { ProductDto } from '../../src/products/dto/product.dto';
import { rawDate } from '../../src/database/column-types';

const PRODUCT_COLUMNS = 'p.id AS productID, p.name AS name, p.description AS `desc`, p.org_id AS orgID, p.user_id AS userID, p.url AS url, p.image_link AS imageLink';
export const PRODUCT_BY_ID = `SELECT ${PRODUCT_COLUMNS} FROM products p WHERE p.id = ?`;
export const PRODUCT_LIST = `SELECT ${PRODUCT_COLUMNS}, p.created_at AS createdAt FROM products p`;
export const PRODUCT_KEYS = { created: 'p.created_at', id: 'p.id' } as const;
export const PRODUCT_INSERT = 'INSERT INTO products (id, name, description, org_id, user_id, url, image_link, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)';

/** A product as PRODUCT_BY_ID reads it: the API's shape. */
export type ProductRow = ProductDto;

export const INTERVIEW_WITH_OWNER_BY_ID =
  'SELECT i.id AS interviewID, i.product_id AS productID, i.name AS interviewName, i.guidelines AS guidelines, i.user_id AS userID, i.interviewer AS interviewer, ' +
  'p.org_id AS ownerOrgID, p.user_id AS ownerUserID FROM interviews i INNER JOIN products p ON p.id = i.product_id WHERE i.id = ?';

export interface InterviewRow {
  interviewID: string;
  productID: string;
}

const INVITE_COLUMNS =
  'i.link_id AS linkID, i.interview_id AS interviewID, i.product_id AS productID, i.org_id AS orgID, i.user_info AS userInfo, ' +
  'i.status AS status, i.created_at AS createdAt, i.completed_on AS completedOn, i.expires_on AS expiresAt, i.conversation AS conversation, ' +
  'i.source AS source, i.participant_id AS participantID, i.segment AS segment, i.passthrough AS passthrough, i.screener AS screener, i.quality AS quality';
export const INVITE_WITH_OWNER_BY_ID = `SELECT ${INVITE_COLUMNS}, p.org_id AS ownerOrgID, p.user_id AS ownerUserID FROM invites i INNER JOIN products p ON p.id = i.product_id WHERE i.link_id = ?`;
export const INVITE_LIST = `SELECT ${INVITE_COLUMNS} FROM invites i`;
export const INVITE_KEYS = { created: 'i.created_at', id: 'i.link_id' } as const;
export const INVITE_INSERT_CHUNK = 1000;
export function inviteInsertSql(rows: number): string {
  return (
    'INSERT INTO invites (link_id, interview_id, product_id, org_id, created_at, updated_at, expires_on, user_info, status, completed_on, conversation, turn_meta) VALUES ' +
    new Array<string>(rows).fill("(?, ?, ?, ?, ?, ?, ?, NULL, 'pending', NULL, '[]', '[]')").join(', ')
  );
}

export const ROOM_INVITE_BY_ID = `SELECT ${INVITE_COLUMNS},
  i.started_on AS startedOn, i.language AS language, i.turn_meta AS turnMeta,
  iv.name AS interviewName, iv.guidelines AS guidelines, iv.interviewer AS interviewer, iv.language AS interviewLanguage,
  iv.public_title AS publicTitle, iv.consent_text AS consentText, iv.completion_redirect_url AS completionRedirectUrl, iv.redact_pii AS redactPII,
  p.name AS productName, p.description AS productDesc, p.image_link AS productImage, p.user_id AS productUserID
  FROM invites i INNER JOIN interviews iv ON iv.id = i.interview_id INNER JOIN products p ON p.id = i.product_id WHERE i.link_id = ?`;
export const INVITE_STATE_FOR_UPDATE = 'SELECT status, conversation, expires_on AS expiresAt FROM invites WHERE link_id = ?';

/** The invite columns these baselines read (INVITE_COLUMNS). */
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
  source: string;
  participantID: string | null;
  segment: string | null;
  passthrough: string | null;
  screener: string | null;
  quality: string | null;
}

export interface RoomInviteRow extends InviteRow {
  startedOn: Date | string | null;
  language: string | null;
  turnMeta: string | null;
  interviewName: string;
  guidelines: string | null;
  interviewer: string;
  interviewLanguage: string | null;
  publicTitle: string | null;
  consentText: string | null;
  completionRedirectUrl: string | null;
  redactPII: number | boolean;
  productName: string;
  productDesc: string | null;
  productImage: string | null;
  productUserID: string | null;
}

/** An invite as the API shows it (the service's inviteDtoOf). */
export function inviteFromRow(r: InviteRow) {
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
    source: r.source,
    participantID: r.participantID,
    segment: r.segment,
    passthrough: r.passthrough === null ? null : JSON.parse(r.passthrough),
    screener: r.screener === null ? null : JSON.parse(r.screener),
    quality: r.quality === null ? null : JSON.parse(r.quality),
  };
}
