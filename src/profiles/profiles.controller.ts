import { Controller, Get, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '../auth/current-principal.decorator';
import type { Principal } from '../auth/principal';
import { ApiErrors, ApiResult } from '../common/api-responses';
import { Paginated } from '../common/paginated';
import { ProfileDto } from './dto/profile.dto';
import { GetProfileQueryDto, ListProfilesQueryDto } from './dto/profile-queries.dto';
import { ProfilesService } from './profiles.service';

@ApiTags('profiles')
@ApiBearerAuth()
@Controller('v1/profiles')
export class ProfilesController {
  constructor(private readonly profiles: ProfilesService) {}

  @Get('getOne')
  @ApiOperation({
    summary: 'Return one profile',
    description: 'Visible when any of its products is visible (else 404). productIDs lists the products the caller can see.',
  })
  @ApiResult(ProfileDto, { description: 'The profile' })
  @ApiErrors(400, 404)
  getOne(@Query() query: GetProfileQueryDto, @CurrentPrincipal() principal: Principal) {
    return this.profiles.getOne(query.profileID, principal);
  }

  @Get('getList')
  @ApiOperation({ summary: 'Return profiles of a product', description: '404 when the product is unknown or not visible. Oldest first, ties by profileID.' })
  @Paginated(ProfileDto, "The product's profiles, oldest first")
  @ApiErrors(400, 404)
  getList(@Query() query: ListProfilesQueryDto, @CurrentPrincipal() principal: Principal) {
    return this.profiles.list(query, principal);
  }
}
