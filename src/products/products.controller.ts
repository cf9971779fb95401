import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '../auth/current-principal.decorator';
import type { Principal } from '../auth/principal';
import { ApiErrors, ApiResult, errorCase } from '../common/api-responses';
import { IdempotencyKey, Idempotent } from '../idempotency/idempotent.decorator';
import { IdempotencyService, IdempotentCall } from '../idempotency/idempotency.service';
import { Paginated } from '../common/paginated';
import { CreateProductDto } from './dto/create-product.dto';
import { GetProductQueryDto, ListProductsQueryDto } from './dto/product-queries.dto';
import { ProductDto, ProductIdResultDto, ProductUpdatedDto } from './dto/product.dto';
import { UpdateProductDto } from './dto/update-product.dto';
import { ProductsService } from './products.service';

const NOT_FOUND = errorCase(404, 'product "019a8f7e-1c2b-7d3e-9f40-2b6c8d9e0a1b" not found');
const OUT_OF_SCOPE = errorCase(403, 'the product would not be visible to this token afterwards; a token may only write within its own organization or user');

@ApiTags('products')
@ApiBearerAuth()
@Controller('v1/products')
export class ProductsController {
  constructor(
    private readonly products: ProductsService,
    private readonly idempotency: IdempotencyService,
  ) {}

  @Post('addOne')
  @Idempotent()
  @HttpCode(201)
  @ApiOperation({
    summary: 'Create a product',
    description: 'Creates a product owned by an organization and/or a user. A scoped token may only create products it can see (its own orgID or userID), else 403.',
  })
  @ApiBody({
    type: CreateProductDto,
    // Only what a product needs: Swagger UI's "Try it out" starts from the first one.
    examples: {
      organization: { summary: 'A product of an organization', value: { name: 'Acme Notes', orgID: 'org_acme' } },
      user: { summary: 'A product of a user', value: { name: 'Acme Notes', userID: 'user_42' } },
    },
  })
  @ApiResult(ProductIdResultDto, { status: 201, description: 'The new product\'s identifier' })
  @ApiErrors(400, OUT_OF_SCOPE, 413, 415)
  addOne(@Body() dto: CreateProductDto, @CurrentPrincipal() principal: Principal, @IdempotencyKey() once: IdempotentCall | undefined) {
    return this.idempotency.run(once, () => this.products.create(dto, principal));
  }

  @Post('updateOne')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Update a product',
    description: 'Partial update: only the fields present change; null clears an optional field; name cannot be cleared. Moving the product out of the caller\'s scope is 403.',
  })
  @ApiBody({
    type: UpdateProductDto,
    examples: { rename: { summary: 'Rename a product (every field left out stays as it is)', value: { productID: '019a8f7e-1c2b-7d3e-9f40-2b6c8d9e0a1b', name: 'Acme Notes 2' } } },
  })
  @ApiResult(ProductUpdatedDto, { description: 'The product was updated' })
  @ApiErrors(400, OUT_OF_SCOPE, NOT_FOUND, 413, 415)
  updateOne(@Body() dto: UpdateProductDto, @CurrentPrincipal() principal: Principal) {
    return this.products.update(dto, principal);
  }

  @Get('getOne')
  @ApiOperation({ summary: 'Return one product', description: 'Every Product field, null where unset. 404 when unknown or not visible to the caller.' })
  @ApiResult(ProductDto, { description: 'The product' })
  @ApiErrors(400, NOT_FOUND)
  getOne(@Query() query: GetProductQueryDto, @CurrentPrincipal() principal: Principal) {
    return this.products.getOne(query.productID, principal);
  }

  @Get('getList')
  @ApiOperation({
    summary: 'Return products of a user and/or organization',
    description: 'At least one filter is required; both combine with AND. Only products visible to the caller are listed, oldest first (ties by productID).',
  })
  @Paginated(ProductDto, 'The matching products, oldest first')
  @ApiErrors(400)
  getList(@Query() query: ListProductsQueryDto, @CurrentPrincipal() principal: Principal) {
    return this.products.list(query, principal);
  }
}
