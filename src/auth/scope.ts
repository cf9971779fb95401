import type { Principal } from './principal';

/** The fields that decide who sees a product (and through it, its interviews, invites and profiles). */
export interface Owned {
  orgID: string | null;
  userID: string | null;
}

/**
 * The one visibility rule: admin sees all; a scoped token sees a product whose orgID equals the
 * token's orgID or whose userID equals the token's userID.
 */
export function canSee(principal: Principal, owner: Owned): boolean {
  if (principal.isAdmin) return true;
  return (
    (principal.orgID !== null && owner.orgID === principal.orgID) ||
    (principal.userID !== null && owner.userID === principal.userID)
  );
}

/**
 * The same rule as SQL for a products alias, for list queries. Returns undefined for admin.
 * Parameter names are prefixed so they cannot clash with the caller's.
 */
export function productScopeSql(principal: Principal, alias: string): { sql: string; params: Record<string, string> } | undefined {
  if (principal.isAdmin) return undefined;
  const parts: string[] = [];
  const params: Record<string, string> = {};
  if (principal.orgID !== null) {
    parts.push(`${alias}.org_id = :scopeOrgID`);
    params.scopeOrgID = principal.orgID;
  }
  if (principal.userID !== null) {
    parts.push(`${alias}.user_id = :scopeUserID`);
    params.scopeUserID = principal.userID;
  }
  // A scoped token always has an org or a user (the CLI refuses otherwise); fail closed anyway.
  return { sql: parts.length ? `(${parts.join(' OR ')})` : '1 = 0', params };
}
