import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AccessService } from '../access/access.service';
import type { Principal } from '../auth/principal';
import { MissingOneOfException } from '../common/errors';
import { uuidv7 } from '../common/ids';
import { ListAnswer, answerList } from '../common/keyset';
import { CreateProductDto } from './dto/create-product.dto';
import { ProductDto } from './dto/product.dto';
import { ListProductsQueryDto } from './dto/product-queries.dto';
import { UpdateProductDto } from './dto/update-product.dto';
import { Product } from './product.entity';
import { ProductChanges, ProductsRepository } from './products.repository';
import { ProductNotFoundException } from './products.errors';

const OPTIONAL_FIELDS = ['desc', 'orgID', 'userID', 'url', 'imageLink'] as const;
const OWNERS = ['orgID', 'userID'];

function toDto(p: Omit<Product, 'updatedAt'>): ProductDto {
  return { productID: p.productID, name: p.name, desc: p.desc, orgID: p.orgID, userID: p.userID, url: p.url, imageLink: p.imageLink };
}

@Injectable()
export class ProductsService {
  constructor(
    private readonly products: ProductsRepository,
    private readonly access: AccessService,
  ) {}

  /** The product when the caller may see it, else its 404 (also for the modules whose records belong to a product). */
  async requireVisible(principal: Principal, productID: string, db?: EntityManager): Promise<Product> {
    return this.access.visible(principal, await this.products.findById(productID, db), (p) => p, () => new ProductNotFoundException(productID));
  }

  /** The product, for the service's own work (no caller): an interview's general questions name it, a report's analyst reads of it. */
  async findForWork(productID: string): Promise<Product> {
    const product = await this.products.findById(productID);
    if (!product) throw new ProductNotFoundException(productID);
    return product;
  }

  async create(dto: CreateProductDto, principal: Principal): Promise<{ productID: string }> {
    const owner = { orgID: dto.orgID ?? null, userID: dto.userID ?? null };
    if (owner.orgID === null && owner.userID === null) throw new MissingOneOfException(OWNERS);
    this.access.assertWritable(principal, owner, 'the product');
    const productID = uuidv7();
    await this.products.insert(productID, { name: dto.name, desc: dto.desc ?? null, ...owner, url: dto.url ?? null, imageLink: dto.imageLink ?? null }, new Date());
    return { productID };
  }

  async update(dto: UpdateProductDto, principal: Principal): Promise<{ productID: string; status: 'updated' }> {
    const product = await this.requireVisible(principal, dto.productID);
    const changes: ProductChanges = {};
    if (dto.name !== undefined) changes.name = dto.name;
    for (const field of OPTIONAL_FIELDS) {
      if (dto[field] !== undefined) changes[field] = dto[field] ?? null;
    }
    const next = { ...product, ...changes };
    if (next.orgID === null && next.userID === null) throw new MissingOneOfException(OWNERS, 'must remain set');
    this.access.assertWritable(principal, next, 'the product');
    await this.products.update(product.productID, changes, new Date());
    return { productID: product.productID, status: 'updated' };
  }

  async getOne(productID: string, principal: Principal): Promise<ProductDto> {
    return toDto(await this.requireVisible(principal, productID));
  }

  async list(query: ListProductsQueryDto, principal: Principal): Promise<ListAnswer<ProductDto>> {
    if (query.orgID === undefined && query.userID === undefined) throw new MissingOneOfException(OWNERS);
    const list = this.products.list({ orgID: query.orgID, userID: query.userID }, this.access.listScope(principal, 'p'));
    return answerList(query, list, (rows) => rows.map(toDto));
  }
}
