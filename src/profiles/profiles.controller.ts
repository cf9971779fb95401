import { Controller, Get, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '../auth/current-principal.decorator';
import type { Principal } from '../auth/principal';
import { ApiErrors, ApiResult, errorCase } from '../common/api-responses';
import { Paginated } from '../common/paginated';
import { ProfileDto } from './dto/profile.dto';
import { GetProfileQueryDto, ListProfilesQueryDto } from './dto/profile-queries.dto';
import { ProfilesService } from './profiles.service';

const NOT_FOUND = errorCase(404, 'profile "019a8f90-0a1b-7c2d-8e3f-405162738495" not found');
const PRODUCT_NOT_FOUND = errorCase(404, 'product "019a8f7e-1c2b-7d3e-9f40-2b6c8d9e0a1b" not found');

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
  @ApiErrors(400, NOT_FOUND)
  getOne(@Query() query: GetProfileQueryDto, @CurrentPrincipal() principal: Principal) {
    return this.profiles.getOne(query.profileID, principal);
  }

  @Get('getList')
  @ApiOperation({ summary: 'Return profiles of a product', description: '404 when the product is unknown or not visible. Oldest first, ties by profileID.' })
  @Paginated(ProfileDto, "The product's profiles, oldest first")
  @ApiErrors(400, PRODUCT_NOT_FOUND)
  getList(@Query() query: ListProfilesQueryDto, @CurrentPrincipal() principal: Principal) {
    return this.profiles.list(query, principal);
  }
}
