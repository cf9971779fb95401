import { BadRequestException, Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, Repository } from 'typeorm';
import type { Principal } from '../auth/principal';
import { canSee, productScopeSql } from '../auth/scope';
import { AppConfig } from '../config/app-config';
import { MissingFilterException, OutOfScopeException } from '../common/errors';
import { newLinkId } from '../common/ids';
import { rawDate } from '../database/column-types';
import type { InviteStatus } from './invite-status';
import { Page, applyPage, toPage } from '../common/pagination';
import { InterviewsService } from '../interviews/interviews.service';
import { Product } from '../products/product.entity';
import { ProductsService } from '../products/products.service';
import { InviteDto } from './dto/invite.dto';
import { CreateInvitesQueryDto, ListInvitesQueryDto } from './dto/invite-queries.dto';
import { InviteNotFoundException } from './invite-lifecycle.service';
import { Invite } from './invite.entity';

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

export function toInviteDto(i: Invite): InviteDto {
  return {
    linkID: i.linkID,
    interviewID: i.interviewID,
    productID: i.productID,
    orgID: i.orgID,
    userInfo: i.userInfo,
    status: i.status,
    timestamp: i.createdAt.toISOString(),
    completed_on: i.completedOn ? i.completedOn.toISOString() : null,
    conversation: i.conversation,
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
    const interview = await this.interviewsService.findVisible(query.interviewID, principal);
    // A named product the caller cannot see is 404 like any other identifier, before the mismatch check.
    if (query.productID !== undefined) await this.productsService.findVisible(query.productID, principal);
    if (query.productID !== undefined && query.productID !== interview.productID) {
      throw new BadRequestException(`productID ${JSON.stringify(query.productID)} is not the product of interview ${JSON.stringify(interview.interviewID)}`);
    }
    const product = await this.productsService.findVisible(interview.productID, principal);
    const orgID = query.orgID ?? product.orgID;
    if (query.orgID !== undefined && !principal.isAdmin && query.orgID !== principal.orgID) {
      throw new OutOfScopeException('an invite of another organization');
    }
    return this.insertInvites(interview.interviewID, product.productID, orgID, query.count);
  }

  /** The domain operation behind createInvites, also used by the demo-data command. */
  async insertInvites(interviewID: string, productID: string, orgID: string | null, count: number, createdAt = new Date()): Promise<string[]> {
    const rows: Partial<Invite>[] = [];
    for (let i = 0; i < count; i++) {
      rows.push({
        linkID: newLinkId(),
        interviewID,
        productID,
        orgID,
        userInfo: null,
        status: 'pending',
        createdAt,
        completedOn: null,
        conversation: [],
        updatedAt: createdAt,
      });
    }
    await this.dataSource.transaction(async (em) => {
      await em.createQueryBuilder().insert().into(Invite).values(rows).updateEntity(false).execute();
    });
    const base = this.config.inviteBaseUrl;
    return rows.map((r) => `${base}/${r.linkID}`);
  }

  async getOne(linkID: string, principal: Principal): Promise<InviteDto> {
    // One query: the invite with its product's owners, for the visibility check.
    const invite = await this.invites
      .createQueryBuilder('i')
      .innerJoin('i.product', 'p')
      .addSelect(['p.productID', 'p.orgID', 'p.userID'])
      .where('i.link_id = :linkID', { linkID })
      .getOne();
    if (!invite || !invite.product || !canSee(principal, invite.product)) throw new InviteNotFoundException(linkID);
    return toInviteDto(invite);
  }

  async list(query: ListInvitesQueryDto, principal: Principal): Promise<Page<InviteDto>> {
    if (query.interviewID === undefined && query.productID === undefined) throw new MissingFilterException(['interviewID', 'productID']);
    // The named interview and product must exist and be visible: 404 otherwise, as for getOne.
    if (query.interviewID !== undefined) await this.interviewsService.findVisible(query.interviewID, principal);
    if (query.productID !== undefined) await this.productsService.findVisible(query.productID, principal);
    // Raw rows: entity hydration of 1,000 invites costs more than the query.
    const qb = this.invites
      .createQueryBuilder('i')
      .select('i.link_id', 'linkID')
      .addSelect('i.interview_id', 'interviewID')
      .addSelect('i.product_id', 'productID')
      .addSelect('i.org_id', 'orgID')
      .addSelect('i.user_info', 'userInfo')
      .addSelect('i.status', 'status')
      .addSelect('i.created_at', 'createdAt')
      .addSelect('i.completed_on', 'completedOn')
      .addSelect('i.conversation', 'conversation');
    if (query.interviewID !== undefined) qb.andWhere('i.interview_id = :interviewID', { interviewID: query.interviewID });
    if (query.productID !== undefined) qb.andWhere('i.product_id = :productID', { productID: query.productID });
    // Visibility was established through the filters above; the scope join is a second lock on the door.
    const scope = productScopeSql(principal, 'p');
    if (scope) qb.innerJoin(Product, 'p', 'p.id = i.product_id').andWhere(scope.sql, scope.params);
    const rows = await applyPage(qb, 'i.created_at', 'i.link_id', query).getRawMany<RawInvite>();
    return toPage(rows, query, (r) => [rawDate(r.createdAt), r.linkID], fromRaw);
  }
}
