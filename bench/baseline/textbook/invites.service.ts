import { BadRequestException, Injectable, NotFoundException } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { FindOptionsWhere, Repository } from 'typeorm';
import { Principal, canSee } from './auth.guard';
import { InviteView, ListInvitesQuery } from './dto';
import { Interview, Invite } from './entities';
import { ProductsService } from './products.service';

export function toInviteView(i: Invite): InviteView {
  return {
    linkID: i.linkID,
    interviewID: i.interviewID,
    productID: i.productID,
    orgID: i.orgID,
    userInfo: i.userInfo,
    status: i.status,
    timestamp: i.createdAt.toISOString(),
    completed_on: i.completedOn ? i.completedOn.toISOString() : null,
    expires_on: i.expiresOn.toISOString(),
    conversation: i.conversation,
    source: i.source,
    participantID: i.participantID,
    segment: i.segment,
    passthrough: i.passthrough,
    screener: i.screener,
    quality: i.quality,
  };
}

@Injectable()
export class InvitesService {
  constructor(
    @InjectRepository(Invite) private readonly invites: Repository<Invite>,
    @InjectRepository(Interview) private readonly interviews: Repository<Interview>,
    private readonly products: ProductsService,
  ) {}

  /** An invite is visible when its product is. */
  async getOne(linkID: string, principal: Principal): Promise<InviteView> {
    const invite = await this.invites.findOne({ where: { linkID }, relations: { product: true } });
    if (!invite || !canSee(principal, invite.product)) throw new NotFoundException(`invite ${JSON.stringify(linkID)} not found`);
    return toInviteView(invite);
  }

  /** The named interview and/or product must be visible (else 404); then all of their invites are. */
  async getList(query: ListInvitesQuery, principal: Principal): Promise<InviteView[]> {
    if (query.interviewID === undefined && query.productID === undefined) throw new BadRequestException('at least one of interviewID, productID is required');
    const where: FindOptionsWhere<Invite> = {};
    if (query.interviewID !== undefined) {
      const interview = await this.interviews.findOne({ where: { interviewID: query.interviewID }, relations: { product: true } });
      if (!interview || !canSee(principal, interview.product)) throw new NotFoundException(`interview ${JSON.stringify(query.interviewID)} not found`);
      where.interviewID = query.interviewID;
    }
    if (query.productID !== undefined) {
      await this.products.findVisible(query.productID, principal);
      where.productID = query.productID;
    }
    const invites = await this.invites.find({ where, order: { createdAt: 'ASC', linkID: 'ASC' } });
    return invites.map(toInviteView);
  }
}
