import { Body, Controller, Get, Post, Query } from '@nestjs/common';
import { CurrentPrincipal, Principal } from './auth.guard';
import { CreateProductDto, GetProductQuery, ListProductsQuery } from './dto';
import { ProductsService } from './products.service';

@Controller('v1/products')
export class ProductsController {
  constructor(private readonly products: ProductsService) {}

  @Get('getOne')
  getOne(@Query() query: GetProductQuery, @CurrentPrincipal() principal: Principal) {
    return this.products.getOne(query.productID, principal);
  }

  @Get('getList')
  getList(@Query() query: ListProductsQuery, @CurrentPrincipal() principal: Principal) {
    return this.products.getList(query, principal);
  }

  @Post('addOne')
  addOne(@Body() dto: CreateProductDto, @CurrentPrincipal() principal: Principal) {
    return this.products.create(dto, principal);
  }
}
