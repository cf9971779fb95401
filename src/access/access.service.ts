import { Injectable } from '@nestjs/common';
import type { SqlCondition } from '../common/keyset';
import { OutOfScopeException } from './access.errors';
import { Owned, Viewer, canSee, productScopeSql } from './access-rule';

/**
 * Who may read and write what: every visibility decision of the API goes through here. Each module's
 * repository loads its record with the owner columns the rule needs (a product's own orgID and userID;
 * for an interview or an invite, its product's); this service decides. A record the caller may not see
 * does not exist for it: the resource's 404, never 403, so a foreign id reveals nothing. A write that
 * would leave a record outside the caller's scope is 403. Lists filter with listScope().
 */
@Injectable()
export class AccessService {
  /** The record, when it exists and the caller may see it by its owner; otherwise the 404 `notFound` makes. */
  visible<T>(viewer: Viewer, record: T | undefined | null, ownerOf: (record: T) => Owned, notFound: () => Error): T {
    if (record === undefined || record === null || !canSee(viewer, ownerOf(record))) throw notFound();
    return record;
  }

  /** Whether the caller may see a record owned like this. */
  canSee(viewer: Viewer, owner: Owned): boolean {
    return canSee(viewer, owner);
  }

  /** 403 unless a record owned like this would be visible to the caller (a write must stay in scope). */
  assertWritable(viewer: Viewer, owner: Owned, what: string): void {
    if (!canSee(viewer, owner)) throw new OutOfScopeException(what);
  }

  /** 403 unless the caller may act for this organization (createInvites' orgID). */
  assertOwnOrganization(viewer: Viewer, orgID: string, what: string): void {
    if (!viewer.isAdmin && orgID !== viewer.orgID) throw new OutOfScopeException(what);
  }

  /**
   * The condition that keeps a list to rows the caller may see, on an alias of a table owned by org_id
   * and user_id (products, webhooks); undefined for admin.
   */
  listScope(viewer: Viewer, ownedAlias: string): SqlCondition | undefined {
    return productScopeSql(viewer, ownedAlias);
  }
}
