import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '../auth/current-principal.decorator';
import type { Principal } from '../auth/principal';
import { ApiErrors, ApiResult, errorCase } from '../common/api-responses';
import { DeleteInterviewDto, DeleteProductDto, InterviewDeletedDto, ProductDeletedDto } from './dto/deletion.dto';
import { DeletionService } from './deletion.service';

/**
 * The deletions live apart from the interviews and products modules because they reach into every
 * module under them (invites, reports, profiles); their routes are those resources' own.
 */
@ApiBearerAuth()
@Controller('v1')
export class DeletionController {
  constructor(private readonly deletion: DeletionService) {}

  @Post('interviews/deleteOne')
  @HttpCode(200)
  @ApiTags('interviews')
  @ApiOperation({
    summary: 'Delete an interview',
    description:
      'Deletes the interview. While it has invites: 409, unless `cascade: true`, which deletes its invites (with their transcripts), its reports and their ' +
      "share links in the same transaction. Profiles stay (they belong to the product). Irreversible. 404 when unknown or not visible.",
  })
  @ApiBody({
    type: DeleteInterviewDto,
    examples: {
      empty: { summary: 'An interview without invites', value: { interviewID: '019a8f80-5d6e-7f01-8a23-4b5c6d7e8f90' } },
      cascade: { summary: 'An interview with everything under it', value: { interviewID: '019a8f80-5d6e-7f01-8a23-4b5c6d7e8f90', cascade: true } },
    },
  })
  @ApiResult(InterviewDeletedDto, { description: 'The interview is deleted; how much was deleted with it' })
  @ApiErrors(
    400,
    errorCase(404, 'interview "019a8f80-5d6e-7f01-8a23-4b5c6d7e8f90" not found'),
    errorCase(409, 'interview "019a8f80-5d6e-7f01-8a23-4b5c6d7e8f90" has 12 invite(s); send "cascade": true to delete them (with their transcripts and reports) too'),
    413,
    415,
  )
  deleteInterview(@Body() dto: DeleteInterviewDto, @CurrentPrincipal() principal: Principal) {
    return this.deletion.deleteInterview(dto.interviewID, dto.cascade === true, principal);
  }

  @Post('products/deleteOne')
  @HttpCode(200)
  @ApiTags('products')
  @ApiOperation({
    summary: 'Delete a product',
    description:
      "Deletes the product and takes it out of profiles' productIDs (a profile left without products is deleted). While it has interviews: 409, unless " +
      '`cascade: true`, which deletes them too, with their invites, transcripts, reports and share links, in the same transaction. Irreversible. ' +
      '404 when unknown or not visible.',
  })
  @ApiBody({
    type: DeleteProductDto,
    examples: {
      empty: { summary: 'A product without interviews', value: { productID: '019a8f7e-1c2b-7d3e-9f40-2b6c8d9e0a1b' } },
      cascade: { summary: 'A product with everything under it', value: { productID: '019a8f7e-1c2b-7d3e-9f40-2b6c8d9e0a1b', cascade: true } },
    },
  })
  @ApiResult(ProductDeletedDto, { description: 'The product is deleted; how much was deleted with it' })
  @ApiErrors(
    400,
    errorCase(404, 'product "019a8f7e-1c2b-7d3e-9f40-2b6c8d9e0a1b" not found'),
    errorCase(409, 'product "019a8f7e-1c2b-7d3e-9f40-2b6c8d9e0a1b" has 2 interview(s); send "cascade": true to delete them (with their invites, transcripts and reports) too'),
    413,
    415,
  )
  deleteProduct(@Body() dto: DeleteProductDto, @CurrentPrincipal() principal: Principal) {
    return this.deletion.deleteProduct(dto.productID, dto.cascade === true, principal);
  }
}
