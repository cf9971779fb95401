import { BadRequestException, Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, Repository } from 'typeorm';
import type { Principal } from '../auth/principal';
import { canSee, productScopeSql } from '../auth/scope';
import { AppConfig } from '../config/app-config';
import { MissingFilterException, OutOfScopeException } from '../common/errors';
import { newLinkIds } from '../common/ids';
import { rawDate, sqlDate } from '../database/column-types';
import type { InviteStatus } from './invite-status';
import { Page, applyPage, toPage } from '../common/pagination';
import { InterviewsService } from '../interviews/interviews.service';
import { Product } from '../products/product.entity';
import { ProductsService } from '../products/products.service';
import { InviteDto } from './dto/invite.dto';
import { CreateInvitesQueryDto, ListInvitesQueryDto } from './dto/invite-queries.dto';
import { InviteNotFoundException } from './invite-lifecycle.service';
import { Invite } from './invite.entity';

const INSERT_CHUNK = 1000;

/** The columns of an invite as the API names them, for the raw reads (getOne and getList). */
const INVITE_COLUMNS: [column: string, alias: keyof RawInvite][] = [
  ['i.link_id', 'linkID'],
  ['i.interview_id', 'interviewID'],
  ['i.product_id', 'productID'],
  ['i.org_id', 'orgID'],
  ['i.user_info', 'userInfo'],
  ['i.status', 'status'],
  ['i.created_at', 'createdAt'],
  ['i.completed_on', 'completedOn'],
  ['i.conversation', 'conversation'],
];
const RAW_INVITE_COLUMNS = INVITE_COLUMNS.map(([column, alias]) => `${column} AS ${alias}`).join(', ');

interface RawInvite {
  linkID: string;
  interviewID: string;
  productID: string;
  orgID: string | null;
  userInfo: string | null;
  status: InviteStatus;
  createdAt: Date | string;
  completedOn: Date | string | null;
  conversation: string;
}

function fromRaw(r: RawInvite): InviteDto {
  return {
    linkID: r.linkID,
    interviewID: r.interviewID,
    productID: r.productID,
    orgID: r.orgID,
    userInfo: r.userInfo === null ? null : JSON.parse(r.userInfo),
    status: r.status,
    timestamp: rawDate(r.createdAt).toISOString(),
    completed_on: r.completedOn === null ? null : rawDate(r.completedOn).toISOString(),
    conversation: JSON.parse(r.conversation),
  };
}

@Injectable()
export class InvitesService {
  constructor(
    @InjectRepository(Invite) private readonly invites: Repository<Invite>,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly interviewsService: InterviewsService,
    private readonly productsService: ProductsService,
    private readonly config: AppConfig,
  ) {}

  /**
   * Creates `count` pending invites in one multi-row INSERT inside one transaction: all or none.
   * Returns their URLs, INVITE_BASE_URL + "/" + linkID.
   */
  async createInvites(query: CreateInvitesQueryDto, principal: Principal): Promise<string[]> {
    const max = this.config.maxInvitesPerRequest;
    if (query.count < 1 || query.count > max) throw new BadRequestException(`count must be from 1 to ${max}`);
    const { interview, product } = await this.interviewsService.findVisibleWithOwners(query.interviewID, principal);
    if (query.productID !== undefined && query.productID !== interview.productID) {
      // A named product the caller cannot see is 404 like any other identifier, before the mismatch (400).
      await this.productsService.findVisible(query.productID, principal);
      throw new BadRequestException(`productID ${JSON.stringify(query.productID)} is not the product of interview ${JSON.stringify(interview.interviewID)}`);
    }
    const orgID = query.orgID ?? product.orgID;
    if (query.orgID !== undefined && !principal.isAdmin && query.orgID !== principal.orgID) {
      throw new OutOfScopeException('an invite of another organization');
    }
    return this.insertInvites(interview.interviewID, product.productID, orgID, query.count);
  }

  /** The domain operation behind createInvites, also used by the demo-data command. */
  async insertInvites(interviewID: string, productID: string, orgID: string | null, count: number, createdAt = new Date()): Promise<string[]> {
    const linkIDs = newLinkIds(count);
    const at = sqlDate(createdAt);
    // Plain SQL: TypeORM's query builder spent two thirds of this request assembling 10,000
    // parameters. Constant columns are inlined; '?' placeholders work on mysql2 and better-sqlite3.
    // Statements of at most INSERT_CHUNK rows (SQLite's variable limit), all in one transaction.
    await this.dataSource.transaction(async (em) => {
      for (let start = 0; start < count; start += INSERT_CHUNK) {
        const chunk = linkIDs.slice(start, start + INSERT_CHUNK);
        const params: (string | null)[] = [];
        for (const linkID of chunk) params.push(linkID, interviewID, productID, orgID, at, at);
        await em.query(
          'INSERT INTO invites (link_id, interview_id, product_id, org_id, created_at, updated_at, user_info, status, completed_on, conversation) VALUES ' +
            chunk.map(() => "(?, ?, ?, ?, ?, ?, NULL, 'pending', NULL, '[]')").join(', '),
          params,
        );
      }
    });
    const base = this.config.inviteBaseUrl;
    return linkIDs.map((linkID) => `${base}/${linkID}`);
  }

  async getOne(linkID: string, principal: Principal): Promise<InviteDto> {
    // One raw query: the invite with its product's owners, for the visibility check.
    const [row]: (RawInvite & { ownerOrgID: string | null; ownerUserID: string | null })[] = await this.dataSource.query(
      `SELECT ${RAW_INVITE_COLUMNS}, p.org_id AS ownerOrgID, p.user_id AS ownerUserID
       FROM invites i INNER JOIN products p ON p.id = i.product_id WHERE i.link_id = ?`,
      [linkID],
    );
    if (!row || !canSee(principal, { orgID: row.ownerOrgID, userID: row.ownerUserID })) throw new InviteNotFoundException(linkID);
    return fromRaw(row);
  }

  async list(query: ListInvitesQueryDto, principal: Principal): Promise<Page<InviteDto>> {
    if (query.interviewID === undefined && query.productID === undefined) throw new MissingFilterException(['interviewID', 'productID']);
    // The named interview and product must exist and be visible: 404 otherwise, as for getOne.
    if (query.interviewID !== undefined) await this.interviewsService.findVisible(query.interviewID, principal);
    if (query.productID !== undefined) await this.productsService.findVisible(query.productID, principal);
    // Raw rows: entity hydration of 1,000 invites costs more than the query.
    const qb = this.invites.createQueryBuilder('i').select([]);
    for (const [column, alias] of INVITE_COLUMNS) qb.addSelect(column, alias);
    if (query.interviewID !== undefined) qb.andWhere('i.interview_id = :interviewID', { interviewID: query.interviewID });
    if (query.productID !== undefined) qb.andWhere('i.product_id = :productID', { productID: query.productID });
    // Visibility was established through the filters above; the scope join is a second lock on the door.
    const scope = productScopeSql(principal, 'p');
    if (scope) qb.innerJoin(Product, 'p', 'p.id = i.product_id').andWhere(scope.sql, scope.params);
    const rows = await applyPage(qb, 'i.created_at', 'i.link_id', query).getRawMany<RawInvite>();
    return toPage(rows, query, (r) => [rawDate(r.createdAt), r.linkID], fromRaw);
  }
}
