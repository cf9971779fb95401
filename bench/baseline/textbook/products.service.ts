import { BadRequestException, ForbiddenException, Injectable, NotFoundException } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Brackets, Repository } from 'typeorm';
import { v7 as uuidv7 } from 'uuid';
import { Principal, canSee } from './auth.guard';
import { CreateProductDto, ListProductsQuery, ProductView } from './dto';
import { Product } from './entities';

export function toProductView(p: Product): ProductView {
  return { productID: p.productID, name: p.name, desc: p.desc, orgID: p.orgID, userID: p.userID, url: p.url, imageLink: p.imageLink };
}

@Injectable()
export class ProductsService {
  constructor(@InjectRepository(Product) private readonly products: Repository<Product>) {}

  /** The product, if the caller may see it; 404 otherwise. */
  async findVisible(productID: string, principal: Principal): Promise<Product> {
    const product = await this.products.findOneBy({ productID });
    if (!product || !canSee(principal, product)) throw new NotFoundException(`product ${JSON.stringify(productID)} not found`);
    return product;
  }

  async getOne(productID: string, principal: Principal): Promise<ProductView> {
    return toProductView(await this.findVisible(productID, principal));
  }

  async getList(query: ListProductsQuery, principal: Principal): Promise<ProductView[]> {
    if (query.orgID === undefined && query.userID === undefined) throw new BadRequestException('at least one of orgID, userID is required');
    const qb = this.products.createQueryBuilder('p');
    if (query.orgID !== undefined) qb.andWhere('p.orgID = :orgID', { orgID: query.orgID });
    if (query.userID !== undefined) qb.andWhere('p.userID = :userID', { userID: query.userID });
    if (!principal.isAdmin) {
      // Visibility: the caller's organization or user owns the product (a null one matches nothing).
      qb.andWhere(
        new Brackets((scope) =>
          scope.where('p.orgID = :scopeOrgID', { scopeOrgID: principal.orgID }).orWhere('p.userID = :scopeUserID', { scopeUserID: principal.userID }),
        ),
      );
    }
    const products = await qb.orderBy('p.createdAt', 'ASC').addOrderBy('p.productID', 'ASC').getMany();
    return products.map(toProductView);
  }

  async create(dto: CreateProductDto, principal: Principal): Promise<{ productID: string }> {
    const owner = { orgID: dto.orgID ?? null, userID: dto.userID ?? null };
    if (owner.orgID === null && owner.userID === null) throw new BadRequestException('at least one of orgID, userID is required');
    if (!canSee(principal, owner)) {
      throw new ForbiddenException('the product would not be visible to this token afterwards; a token may only write within its own organization or user');
    }
    const now = new Date();
    const productID = uuidv7();
    await this.products.insert({
      productID,
      name: dto.name,
      desc: dto.desc ?? null,
      orgID: owner.orgID,
      userID: owner.userID,
      url: dto.url ?? null,
      imageLink: dto.imageLink ?? null,
      createdAt: now,
      updatedAt: now,
    });
    return { productID };
  }
}
