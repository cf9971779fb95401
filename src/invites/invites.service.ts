import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AccessService } from '../access/access.service';
import type { Principal } from '../auth/principal';
import { MissingOneOfException } from '../common/errors';
import { newLinkIds } from '../common/ids';
import { Page, SqlWhere, pagedSql, toPage } from '../common/keyset';
import { AppConfig } from '../config/app-config';
import { rawDate, sqlDate } from '../database/column-types';
import { InviteDto } from './dto/invite.dto';
import { CreateInvitesQueryDto, ListInvitesQueryDto } from './dto/invite-queries.dto';
import { InviteCountException, ProductMismatchException } from './invites.errors';
import { INVITE_INSERT_CHUNK, INVITE_KEYS, INVITE_LIST, InviteRow, inviteFromRow, inviteInsertSql } from './invites.sql';

const DAY_MS = 24 * 60 * 60 * 1000;

@Injectable()
export class InvitesService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly access: AccessService,
    private readonly config: AppConfig,
  ) {}

  /** The API's createInvites: checks, then `count` new pending invites; answers their URLs. */
  async createInvites(query: CreateInvitesQueryDto, principal: Principal): Promise<string[]> {
    const max = this.config.maxInvitesPerRequest;
    if (query.count < 1 || query.count > max) throw new InviteCountException(max);
    const { interview, owner } = await this.access.interview(principal, query.interviewID);
    if (query.productID !== undefined && query.productID !== interview.productID) {
      // A named product the caller cannot see is 404 like any other identifier, before the mismatch (400).
      await this.access.product(principal, query.productID);
      throw new ProductMismatchException(query.productID, interview.interviewID);
    }
    if (query.orgID !== undefined) this.access.assertOwnOrganization(principal, query.orgID, 'an invite of another organization');
    const target = { interviewID: interview.interviewID, productID: interview.productID, orgID: query.orgID ?? owner.orgID };
    const linkIDs = await this.insertInvites(target, query.count, { expiresInDays: query.expiresInDays });
    const base = this.config.inviteBaseUrl;
    return linkIDs.map((linkID) => `${base}/${linkID}`);
  }

  /**
   * The domain operation behind createInvites (also used by the demo data): `count` pending invites in
   * one transaction, all or none, expiring after `expiresInDays` (INVITE_TTL_DAYS by default). Returns their linkIDs.
   */
  async insertInvites(
    target: { interviewID: string; productID: string; orgID: string | null },
    count: number,
    options: { expiresInDays?: number; createdAt?: Date } = {},
  ): Promise<string[]> {
    const { interviewID, productID, orgID } = target;
    const linkIDs = newLinkIds(count);
    const createdAt = options.createdAt ?? new Date();
    const at = sqlDate(createdAt);
    const expires = sqlDate(new Date(createdAt.getTime() + (options.expiresInDays ?? this.config.room.inviteTtlDays) * DAY_MS));
    // Plain SQL: TypeORM's query builder spent two thirds of this request assembling 10,000
    // parameters. Constant columns are inlined.
    await this.dataSource.transaction(async (db) => {
      for (let start = 0; start < count; start += INVITE_INSERT_CHUNK) {
        const chunk = linkIDs.slice(start, start + INVITE_INSERT_CHUNK);
        const params: (string | null)[] = [];
        for (const linkID of chunk) params.push(linkID, interviewID, productID, orgID, at, at, expires);
        await db.query(inviteInsertSql(chunk.length), params);
      }
    });
    return linkIDs;
  }

  async getOne(linkID: string, principal: Principal): Promise<InviteDto> {
    return inviteFromRow(await this.access.invite(principal, linkID));
  }

  async list(query: ListInvitesQueryDto, principal: Principal): Promise<Page<InviteDto>> {
    if (query.interviewID === undefined && query.productID === undefined) throw new MissingOneOfException(['interviewID', 'productID']);
    // The named interview and product must exist and be visible: 404 otherwise, as for getOne. Their
    // invites are then visible too, so the rows need no scope condition of their own.
    const where = new SqlWhere();
    if (query.interviewID !== undefined) {
      await this.access.interview(principal, query.interviewID);
      where.and('i.interview_id = ?', query.interviewID);
    }
    if (query.productID !== undefined) {
      await this.access.product(principal, query.productID);
      where.and('i.product_id = ?', query.productID);
    }
    const { sql, params } = pagedSql(INVITE_LIST, where, INVITE_KEYS, query);
    const rows: InviteRow[] = await this.dataSource.query(sql, params);
    return toPage(rows, query, (r) => [rawDate(r.createdAt), r.linkID], inviteFromRow);
  }
}
