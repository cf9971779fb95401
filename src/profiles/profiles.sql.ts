import type { ProfileDto } from './dto/profile.dto';
import type { HistoryEntry, ProfileDetails, ProfileMetadata } from './profile.entity';

/** The profile reads in plain SQL ('?' placeholders work on both drivers); see products.sql.ts. */
export const PROFILE_COLUMNS =
  'pr.id AS profileID, pr.first_name AS firstName, pr.last_name AS lastName, pr.metadata AS metadata, pr.details AS details, pr.history AS history, pr.created_at AS createdAt';

export const PROFILE_BY_ID = `SELECT ${PROFILE_COLUMNS} FROM profiles pr WHERE pr.id = ?`;

/** Profiles of one product (the caller adds the product condition on pp.product_id). */
export const PROFILE_LIST = `SELECT ${PROFILE_COLUMNS} FROM profiles pr INNER JOIN profile_products pp ON pp.profile_id = pr.id`;
export const PROFILE_KEYS = { created: 'pr.created_at', id: 'pr.id' } as const;

/** The products of some profiles, in the products' creation order (the caller adds the IN list and scope). */
export const PROFILE_PRODUCTS = 'SELECT pp.profile_id AS profileID, pp.product_id AS productID FROM profile_products pp INNER JOIN products p ON p.id = pp.product_id';
export const PROFILE_PRODUCTS_ORDER = ' ORDER BY p.created_at, p.id';

export interface ProfileRow {
  profileID: string;
  firstName: string | null;
  lastName: string | null;
  metadata: string | null;
  details: string | null;
  history: string;
  createdAt: Date | string;
}

export const EMPTY_METADATA: ProfileMetadata = { source: null, acquired_date: null, last_interviewed: null, interview_count: null, sentiment: null };
export const EMPTY_DETAILS: ProfileDetails = { occupation: null, location: null, background: null, productAlignment: null, key_values: [], interests: [] };

export function profileFromRow(r: ProfileRow, productIDs: string[]): ProfileDto {
  return {
    profileID: r.profileID,
    productIDs,
    firstName: r.firstName,
    lastName: r.lastName,
    metadata: { ...EMPTY_METADATA, ...(r.metadata === null ? null : (JSON.parse(r.metadata) as ProfileMetadata)) },
    details: { ...EMPTY_DETAILS, ...(r.details === null ? null : (JSON.parse(r.details) as ProfileDetails)) },
    history: JSON.parse(r.history) as HistoryEntry[],
  };
}
