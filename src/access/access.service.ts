import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import type { Principal } from '../auth/principal';
import type { SqlCondition } from '../common/keyset';
import { IN_CHUNK } from '../common/limits';
import { FOR_UPDATE_SQL } from '../database/column-types';
import { runSql } from '../database/run-sql';
import { InterviewNotFoundException } from '../interviews/interviews.errors';
import { INTERVIEW_BY_ID, INTERVIEW_WITH_OWNER_BY_ID, InterviewRow } from '../interviews/interviews.sql';
import { InviteNotFoundException } from '../invites/invites.errors';
import { INVITE_WITH_OWNER_BY_ID, InviteRow } from '../invites/invites.sql';
import { ProductNotFoundException } from '../products/products.errors';
import { PRODUCT_BY_ID, ProductRow } from '../products/products.sql';
import { ProfileNotFoundException } from '../profiles/profiles.errors';
import { PROFILE_BY_ID, PROFILE_PRODUCTS, PROFILE_PRODUCTS_ORDER, ProfileRow } from '../profiles/profiles.sql';
import { DeliveryNotFoundException, WebhookNotFoundException } from '../webhooks/webhooks.errors';
import { ACTIVE_ENDPOINTS, DELIVERY_WITH_OWNER_BY_ID, DeliveryRow, EndpointRow, WEBHOOK_BY_ID, WebhookRow } from '../webhooks/webhooks.sql';
import type { WebhookStatus } from '../webhooks/webhooks.limits';
import { OutOfScopeException } from './access.errors';
import { Owned, canSee, endpointViewer, productScopeSql, viewersOfSql } from './access-rule';

type Owner = { ownerOrgID: string | null; ownerUserID: string | null };
const ownerOf = (row: Owner): Owned => ({ orgID: row.ownerOrgID, userID: row.ownerUserID });

/**
 * Who may read and write what: every visibility decision of the API goes through here.
 * Reads by identifier return the record, or that resource's 404 when it does not exist or the
 * caller may not see it (never 403, so a foreign id reveals nothing). Writes that would leave a
 * record outside the caller's scope are 403. Lists filter with listScope().
 * Each lookup is one query; pass the transaction's manager to read inside it.
 */
@Injectable()
export class AccessService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The product, when the caller may see it. */
  async product(principal: Principal, productID: string, db?: EntityManager): Promise<ProductRow> {
    const [row] = await this.read<ProductRow>(PRODUCT_BY_ID, [productID], db);
    if (!row || !canSee(principal, row)) throw new ProductNotFoundException(productID);
    return row;
  }

  /**
   * The interview and its product's owners, when the caller may see its product. With `lock` (inside
   * a transaction) the interview row alone is locked until the transaction ends, on MySQL.
   */
  async interview(
    principal: Principal,
    interviewID: string,
    options: { db?: EntityManager; lock?: boolean } = {},
  ): Promise<{ interview: InterviewRow; owner: Owned }> {
    const db = options.db;
    if (options.lock) {
      const [interview] = await this.read<InterviewRow>(INTERVIEW_BY_ID + FOR_UPDATE_SQL, [interviewID], db);
      const [product] = interview ? await this.read<ProductRow>(PRODUCT_BY_ID, [interview.productID], db) : [];
      if (!interview || !product || !canSee(principal, product)) throw new InterviewNotFoundException(interviewID);
      return { interview, owner: product };
    }
    const [row] = await this.read<InterviewRow & Owner>(INTERVIEW_WITH_OWNER_BY_ID, [interviewID], db);
    if (!row || !canSee(principal, ownerOf(row))) throw new InterviewNotFoundException(interviewID);
    const { ownerOrgID: _o, ownerUserID: _u, ...interview } = row;
    return { interview, owner: ownerOf(row) };
  }

  /** The invite, when the caller may see its product. */
  async invite(principal: Principal, linkID: string): Promise<InviteRow> {
    const [row] = await this.read<InviteRow & Owner>(INVITE_WITH_OWNER_BY_ID, [linkID]);
    if (!row || !canSee(principal, ownerOf(row))) throw new InviteNotFoundException(linkID);
    return row;
  }

  /** The profile and those of its products the caller may see; 404 when it may see none of them. */
  async profile(principal: Principal, profileID: string): Promise<{ profile: ProfileRow; productIDs: string[] }> {
    const [profile] = await this.read<ProfileRow>(PROFILE_BY_ID, [profileID]);
    const productIDs = profile ? ((await this.visibleProductsOfProfiles(principal, [profileID])).get(profileID) ?? []) : [];
    if (!profile || productIDs.length === 0) throw new ProfileNotFoundException(profileID);
    return { profile, productIDs };
  }

  /** For each profile, the products the caller may see, oldest first. */
  async visibleProductsOfProfiles(principal: Principal, profileIDs: string[]): Promise<Map<string, string[]>> {
    const out = new Map<string, string[]>();
    const scope = productScopeSql(principal, 'p');
    for (let i = 0; i < profileIDs.length; i += IN_CHUNK) {
      const ids = profileIDs.slice(i, i + IN_CHUNK);
      const sql = `${PROFILE_PRODUCTS} WHERE pp.profile_id IN (${ids.map(() => '?').join(', ')})${scope ? ` AND ${scope.sql}` : ''}${PROFILE_PRODUCTS_ORDER}`;
      const rows = await this.read<{ profileID: string; productID: string }>(sql, [...ids, ...(scope?.params ?? [])]);
      for (const row of rows) {
        const list = out.get(row.profileID);
        if (list) list.push(row.productID);
        else out.set(row.profileID, [row.productID]);
      }
    }
    return out;
  }

  /** The webhook endpoint, when the caller may see it: owned like a product, by its orgID and userID. */
  async webhook(principal: Principal, webhookID: string): Promise<WebhookRow> {
    const [row] = await this.read<WebhookRow>(WEBHOOK_BY_ID, [webhookID]);
    if (!row || !canSee(principal, row)) throw new WebhookNotFoundException(webhookID);
    return row;
  }

  /** The delivery and its endpoint's status, when the caller may see the endpoint. */
  async delivery(principal: Principal, deliveryID: string): Promise<DeliveryRow & { webhookStatus: WebhookStatus }> {
    const [row] = await this.read<DeliveryRow & Owner & { webhookStatus: WebhookStatus }>(DELIVERY_WITH_OWNER_BY_ID, [deliveryID]);
    if (!row || !canSee(principal, ownerOf(row))) throw new DeliveryNotFoundException(deliveryID);
    const { ownerOrgID: _o, ownerUserID: _u, ...delivery } = row;
    return delivery;
  }

  /**
   * The active webhook endpoints whose owner can see at least one of these products: who receives an
   * event about them. An endpoint sees as a token with its orgID and userID would, never as an admin.
   */
  async endpointsSeeing(products: readonly Owned[], db?: EntityManager): Promise<EndpointRow[]> {
    const scope = viewersOfSql(products, 'w');
    if (scope.params.length === 0) return [];
    return this.read<EndpointRow>(ACTIVE_ENDPOINTS + scope.sql, scope.params, db);
  }

  /** Whether an endpoint's owner can see this product (for the productIDs an event shows it). */
  endpointSees(endpoint: Owned, product: Owned): boolean {
    return canSee(endpointViewer(endpoint), product);
  }

  /** 403 unless a record owned like this would be visible to the caller (a write must stay in scope). */
  assertWritable(principal: Principal, owner: Owned, what: string): void {
    if (!canSee(principal, owner)) throw new OutOfScopeException(what);
  }

  /** 403 unless the caller may act for this organization (createInvites' orgID). */
  assertOwnOrganization(principal: Principal, orgID: string, what: string): void {
    if (!principal.isAdmin && orgID !== principal.orgID) throw new OutOfScopeException(what);
  }

  /**
   * The condition that keeps a list to rows the caller may see, on an alias of a table owned by org_id
   * and user_id (products, webhooks); undefined for admin.
   */
  listScope(principal: Principal, ownedAlias: string): SqlCondition | undefined {
    return productScopeSql(principal, ownedAlias);
  }

  /** Every lookup's query: on the transaction's manager when given one (see run-sql.ts). */
  private read<T>(sql: string, params: unknown[], db?: EntityManager): Promise<T[]> {
    return runSql<T[]>(this.dataSource, sql, params, db);
  }
}
