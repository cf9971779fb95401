import { Controller, Get, Query } from '@nestjs/common';
import { CurrentPrincipal, Principal } from './auth.guard';
import { GetInviteQuery, ListInvitesQuery } from './dto';
import { InvitesService } from './invites.service';

@Controller('v1/invites')
export class InvitesController {
  constructor(private readonly invites: InvitesService) {}

  @Get('getOne')
  getOne(@Query() query: GetInviteQuery, @CurrentPrincipal() principal: Principal) {
    return this.invites.getOne(query.linkID, principal);
  }

  @Get('getList')
  getList(@Query() query: ListInvitesQuery, @CurrentPrincipal() principal: Principal) {
    return this.invites.getList(query, principal);
  }
}
