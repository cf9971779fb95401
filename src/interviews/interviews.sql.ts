/** The interview reads in plain SQL ('?' placeholders work on both drivers); see products.sql.ts. */
export const INTERVIEW_COLUMNS =
  'i.id AS interviewID, i.product_id AS productID, i.name AS interviewName, i.guidelines AS guidelines, i.user_id AS userID, i.interviewer AS interviewer';

/** The interview with its product's owners, which decide who may see it. */
export const INTERVIEW_WITH_OWNER_BY_ID = `SELECT ${INTERVIEW_COLUMNS}, p.org_id AS ownerOrgID, p.user_id AS ownerUserID
  FROM interviews i INNER JOIN products p ON p.id = i.product_id WHERE i.id = ?`;

/** Only the interview row (to lock it alone inside a transaction: FOR_UPDATE_SQL is appended). */
export const INTERVIEW_BY_ID = `SELECT ${INTERVIEW_COLUMNS} FROM interviews i WHERE i.id = ?`;

export const INTERVIEW_LIST = `SELECT ${INTERVIEW_COLUMNS}, i.created_at AS createdAt FROM interviews i`;
export const INTERVIEW_KEYS = { created: 'i.created_at', id: 'i.id' } as const;

export interface InterviewRow {
  interviewID: string;
  productID: string;
  interviewName: string;
  guidelines: string | null;
  userID: string | null;
  interviewer: string;
}
