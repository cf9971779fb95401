import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { AccessService } from '../access/access.service';
import type { Principal } from '../auth/principal';
import { MissingOneOfException } from '../common/errors';
import { uuidv7 } from '../common/ids';
import { Page, SqlWhere, pagedSql, toPage } from '../common/keyset';
import { rawDate, sqlDate } from '../database/column-types';
import { runSql } from '../database/run-sql';
import { CreateProductDto } from './dto/create-product.dto';
import { ProductDto } from './dto/product.dto';
import { ListProductsQueryDto } from './dto/product-queries.dto';
import { UpdateProductDto } from './dto/update-product.dto';
import { Product } from './product.entity';
import { PRODUCT_INSERT, PRODUCT_KEYS, PRODUCT_LIST, ProductRow } from './products.sql';

const OPTIONAL_FIELDS = ['desc', 'orgID', 'userID', 'url', 'imageLink'] as const;
const OWNERS = ['orgID', 'userID'];

function toDto(p: ProductRow): ProductDto {
  return { productID: p.productID, name: p.name, desc: p.desc, orgID: p.orgID, userID: p.userID, url: p.url, imageLink: p.imageLink };
}

@Injectable()
export class ProductsService {
  constructor(
    @InjectRepository(Product) private readonly products: Repository<Product>,
    private readonly access: AccessService,
  ) {}

  async create(dto: CreateProductDto, principal: Principal): Promise<{ productID: string }> {
    const owner = { orgID: dto.orgID ?? null, userID: dto.userID ?? null };
    if (owner.orgID === null && owner.userID === null) throw new MissingOneOfException(OWNERS);
    this.access.assertWritable(principal, owner, 'the product');
    const now = new Date();
    const productID = uuidv7(now.getTime());
    const at = sqlDate(now);
    await runSql(this.products.manager.connection, PRODUCT_INSERT, [productID, dto.name, dto.desc ?? null, owner.orgID, owner.userID, dto.url ?? null, dto.imageLink ?? null, at, at]);
    return { productID };
  }

  async update(dto: UpdateProductDto, principal: Principal): Promise<{ productID: string; status: 'updated' }> {
    const product = await this.access.product(principal, dto.productID);
    const changes: Partial<Product> = {};
    if (dto.name !== undefined) changes.name = dto.name;
    for (const field of OPTIONAL_FIELDS) {
      if (dto[field] !== undefined) changes[field] = dto[field] ?? null;
    }
    const next = { ...product, ...changes };
    if (next.orgID === null && next.userID === null) throw new MissingOneOfException(OWNERS, 'must remain set');
    this.access.assertWritable(principal, next, 'the product');
    if (Object.keys(changes).length > 0) {
      await this.products.update({ productID: product.productID }, { ...changes, updatedAt: new Date() });
    }
    return { productID: product.productID, status: 'updated' };
  }

  async getOne(productID: string, principal: Principal): Promise<ProductDto> {
    return toDto(await this.access.product(principal, productID));
  }

  async list(query: ListProductsQueryDto, principal: Principal): Promise<Page<ProductDto>> {
    if (query.orgID === undefined && query.userID === undefined) throw new MissingOneOfException(OWNERS);
    const where = new SqlWhere();
    if (query.orgID !== undefined) where.and('p.org_id = ?', query.orgID);
    if (query.userID !== undefined) where.and('p.user_id = ?', query.userID);
    const scope = this.access.listScope(principal, 'p');
    if (scope) where.and(scope);
    // Raw rows, not entities: hydrating 1,000 entities costs about twice the query itself.
    const { sql, params } = pagedSql(PRODUCT_LIST, where, PRODUCT_KEYS, query);
    const rows: (ProductRow & { createdAt: Date | string })[] = await this.products.query(sql, params);
    return toPage(rows, query, (r) => [rawDate(r.createdAt), r.productID], toDto);
  }
}
