import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '../auth/current-principal.decorator';
import type { Principal } from '../auth/principal';
import { ApiErrors, ApiResult, errorCase } from '../common/api-responses';
import { Paginated } from '../common/paginated';
import { ErasureDto, ErasureResultDto, PersonExportDto } from './dto/participant.dto';
import { ListErasuresQueryDto, PersonDto } from './dto/participant-input.dto';
import { ParticipantsService } from './participants.service';

const OUT_OF_SCOPE = errorCase(403, "the data of another organization's or user's interviewees would not be visible to this token afterwards; a token may only write within its own organization or user");
const EXAMPLES = {
  org: { summary: 'A person interviewed for an organization', value: { email: 'ada@example.com', orgID: 'org_acme' } },
  user: { summary: "A person interviewed about a user's products (invites without an organization)", value: { email: 'ada@example.com', userID: 'user_42' } },
};

@ApiTags('participants')
@ApiBearerAuth()
@Controller('v1/participants')
export class ParticipantsController {
  constructor(private readonly participants: ParticipantsService) {}

  @Post('erase')
  @HttpCode(200)
  @ApiOperation({
    summary: "Erase a person's data within an owner (GDPR Art. 17)",
    description:
      'Within the owner, every invite whose userInfo.email is the address (trimmed, case-insensitively) gets userInfo null and conversation [] (its ' +
      "status and times stay); the person's profile there is deleted; quotes from those invites leave every stored report (and so the report's share " +
      "pages). All in one transaction. The erasure is audited (participants/getErasures: who, when, the counts, the address only as its SHA-256) and " +
      'announced as participant.erased {erasureID, emailSha256, linkIDs} to the webhooks that see the products concerned, so that receivers erase their ' +
      'copies. Idempotent: erasing again finds nothing (all counts 0). Exactly one of orgID and userID (400); an owner outside the caller\'s scope: 403.',
  })
  @ApiBody({ type: PersonDto, examples: EXAMPLES })
  @ApiResult(ErasureResultDto, { description: 'What was erased' })
  @ApiErrors(400, OUT_OF_SCOPE, 413, 415)
  erase(@Body() dto: PersonDto, @CurrentPrincipal() principal: Principal) {
    return this.participants.erase(dto, principal);
  }

  @Post('export')
  @HttpCode(200)
  @ApiOperation({
    summary: "Export a person's data within an owner (GDPR Art. 15 and 20)",
    description:
      'Every invite of the person within the owner (oldest first) and their profile there, in the shapes invites/getOne and profiles/getOne give. A ' +
      'POST so that the address never travels in a URL that proxies log. Exactly one of orgID and userID (400); an owner outside the caller\'s scope: 403.',
  })
  @ApiBody({ type: PersonDto, examples: EXAMPLES })
  @ApiResult(PersonExportDto, { description: "The person's invites and profile" })
  @ApiErrors(400, OUT_OF_SCOPE, 413, 415)
  export(@Body() dto: PersonDto, @CurrentPrincipal() principal: Principal) {
    return this.participants.export(dto, principal);
  }

  @Get('getErasures')
  @ApiOperation({
    summary: 'Return the erasures within an organization and/or a user',
    description:
      'The audit of erasures: who asked (the token\'s name, or "retention"), when, how much was erased, and the address only as its SHA-256. At least one ' +
      'filter; both combine with AND. Only erasures the caller may see (of its own organization or user). Oldest first, ties by erasureID.',
  })
  @Paginated(ErasureDto, 'The erasures, oldest first')
  @ApiErrors(400)
  getErasures(@Query() query: ListErasuresQueryDto, @CurrentPrincipal() principal: Principal) {
    return this.participants.listErasures(query, principal);
  }
}
