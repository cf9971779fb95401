import type { ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import type { Principal } from '../auth/principal';
import { namedCondition, type SqlCondition } from '../common/keyset';

/** The fields that decide who sees a product (and through it, its interviews, invites and profiles). */
export interface Owned {
  orgID: string | null;
  userID: string | null;
}

/** Who is asking, as far as visibility goes: a token's principal, or a webhook endpoint's owner. */
export type Viewer = Pick<Principal, 'isAdmin' | 'orgID' | 'userID'>;

/**
 * The one visibility rule: admin sees all; a scoped viewer sees a product whose orgID equals its orgID
 * or whose userID equals its userID. Only AccessService and its SQL twin below apply it.
 */
export function canSee(viewer: Viewer, owner: Owned): boolean {
  if (viewer.isAdmin) return true;
  return (viewer.orgID !== null && owner.orgID === viewer.orgID) || (viewer.userID !== null && owner.userID === viewer.userID);
}

/** The same rule as a SQL condition on a products alias, for lists; undefined for admin. */
export function productScopeSql(viewer: Viewer, alias: string): SqlCondition | undefined {
  if (viewer.isAdmin) return undefined;
  const parts: string[] = [];
  const params: string[] = [];
  if (viewer.orgID !== null) {
    parts.push(`${alias}.org_id = ?`);
    params.push(viewer.orgID);
  }
  if (viewer.userID !== null) {
    parts.push(`${alias}.user_id = ?`);
    params.push(viewer.userID);
  }
  // A scoped token always has an org or a user (the CLI refuses otherwise); fail closed anyway.
  return { sql: parts.length ? `(${parts.join(' OR ')})` : '1 = 0', params };
}

/** What a list of owned records asks for: an organization's, a user's, or both (ANDed). */
export interface OwnerFilter {
  orgID?: string;
  userID?: string;
}

/**
 * A list of owned records (products, erasures: entities with orgID and userID) on a builder's alias:
 * the filter asked for, within the caller's scope (productScopeSql on the same alias; none for admin).
 */
export function ownedWithin<E extends ObjectLiteral>(query: SelectQueryBuilder<E>, filter: OwnerFilter, scope: SqlCondition | undefined): SelectQueryBuilder<E> {
  const alias = query.alias;
  if (filter.orgID !== undefined) query.andWhere(`${alias}.orgID = :ownerOrgID`, { ownerOrgID: filter.orgID });
  if (filter.userID !== undefined) query.andWhere(`${alias}.userID = :ownerUserID`, { ownerUserID: filter.userID });
  if (scope) query.andWhere(...namedCondition(scope, 'scope'));
  return query;
}

/** A webhook endpoint sees what a token with its orgID and userID would: never as an admin. */
export function endpointViewer(owner: Owned): Viewer {
  return { isAdmin: false, orgID: owner.orgID, userID: owner.userID };
}

/**
 * The rule read the other way round, for fanning events out: the condition on a table of viewers
 * (its alias's org_id and user_id, e.g. webhook endpoints) that keeps those that can see at least one
 * of these products. A product without owners is seen by no scoped viewer.
 */
export function viewersOfSql(products: readonly Owned[], alias: string): SqlCondition {
  const orgs = [...new Set(products.map((p) => p.orgID).filter((id): id is string => id !== null))];
  const users = [...new Set(products.map((p) => p.userID).filter((id): id is string => id !== null))];
  const parts: string[] = [];
  if (orgs.length) parts.push(`${alias}.org_id IN (${orgs.map(() => '?').join(', ')})`);
  if (users.length) parts.push(`${alias}.user_id IN (${users.map(() => '?').join(', ')})`);
  return { sql: parts.length ? `(${parts.join(' OR ')})` : '1 = 0', params: [...orgs, ...users] };
}
