import { BadRequestException, Injectable, NotFoundException } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, In, Repository } from 'typeorm';
import type { Principal } from '../auth/principal';
import { productScopeSql } from '../auth/scope';
import { uuidv7 } from '../common/ids';
import { Page, applyPage, toPage } from '../common/pagination';
import { ListProfilesQueryDto } from './dto/profile-queries.dto';
import { Product } from '../products/product.entity';
import { ProductsService } from '../products/products.service';
import { ProfileDto } from './dto/profile.dto';
import { HISTORY_TYPES, PROFILE_LIMITS, PROFILE_SOURCES } from './profile.constants';
import { HistoryEntry, Profile, ProfileDetails, ProfileMetadata, ProfileProduct } from './profile.entity';


export class ProfileNotFoundException extends NotFoundException {
  constructor(id: string) {
    super(`profile ${JSON.stringify(id)} not found`);
  }
}

export interface NewProfile {
  firstName?: string | null;
  lastName?: string | null;
  metadata?: Partial<ProfileMetadata>;
  details?: Partial<ProfileDetails>;
  history?: HistoryEntry[];
  productIDs: string[];
}

const EMPTY_METADATA: ProfileMetadata = { source: null, acquired_date: null, last_interviewed: null, interview_count: null, sentiment: null };
const EMPTY_DETAILS: ProfileDetails = { occupation: null, location: null, background: null, productAlignment: null, key_values: [], interests: [] };

function text(value: string | null | undefined, what: string, max: number): void {
  if (value === null || value === undefined) return;
  if (typeof value !== 'string' || value.length > max || value.includes('\0') || !value.isWellFormed()) {
    throw new BadRequestException(`${what} must be text of at most ${max} characters, without NUL or unpaired surrogates`);
  }
}

function isoOrNull(value: string | null | undefined, what: string): string | null {
  if (value === null || value === undefined) return null;
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) throw new BadRequestException(`${what} must be an ISO-8601 time`);
  return d.toISOString();
}

@Injectable()
export class ProfilesService {
  constructor(
    @InjectRepository(Profile) private readonly profiles: Repository<Profile>,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly productsService: ProductsService,
  ) {}

  /** Domain write (profiles are read-only under /v1): used by the profile pipeline and the demo data. */
  async create(input: NewProfile): Promise<string> {
    if (input.productIDs.length === 0) throw new BadRequestException('a profile needs at least one product');
    if (input.productIDs.length > PROFILE_LIMITS.products) throw new BadRequestException(`a profile has at most ${PROFILE_LIMITS.products} products`);
    text(input.firstName, 'firstName', PROFILE_LIMITS.name);
    text(input.lastName, 'lastName', PROFILE_LIMITS.name);
    const d = input.details ?? {};
    text(d.occupation, 'details.occupation', PROFILE_LIMITS.shortText);
    text(d.location, 'details.location', PROFILE_LIMITS.shortText);
    text(d.background, 'details.background', PROFILE_LIMITS.background);
    text(d.productAlignment, 'details.productAlignment', PROFILE_LIMITS.productAlignment);
    for (const list of ['key_values', 'interests'] as const) {
      const items = d[list] ?? [];
      if (items.length > PROFILE_LIMITS.listItems) throw new BadRequestException(`details.${list} has at most ${PROFILE_LIMITS.listItems} items`);
      items.forEach((item, i) => text(item, `details.${list}[${i}]`, PROFILE_LIMITS.shortText));
    }
    if ((input.history ?? []).length > PROFILE_LIMITS.history) throw new BadRequestException(`history has at most ${PROFILE_LIMITS.history} entries`);
    (input.history ?? []).forEach((h, i) => text(h.id, `history[${i}].id`, PROFILE_LIMITS.historyId));
    const metadata: ProfileMetadata = { ...EMPTY_METADATA, ...input.metadata };
    if (metadata.source !== null && !PROFILE_SOURCES.includes(metadata.source as (typeof PROFILE_SOURCES)[number])) {
      throw new BadRequestException(`metadata.source must be one of ${PROFILE_SOURCES.join(', ')}`);
    }
    if (metadata.interview_count !== null && (!Number.isInteger(metadata.interview_count) || metadata.interview_count < 0 || metadata.interview_count > PROFILE_LIMITS.interviewCount)) {
      throw new BadRequestException(`metadata.interview_count must be a whole number from 0 to ${PROFILE_LIMITS.interviewCount}`);
    }
    if (metadata.sentiment !== null && !(metadata.sentiment >= -1 && metadata.sentiment <= 1)) {
      throw new BadRequestException('metadata.sentiment must be from -1 to 1');
    }
    metadata.acquired_date = isoOrNull(metadata.acquired_date, 'metadata.acquired_date');
    metadata.last_interviewed = isoOrNull(metadata.last_interviewed, 'metadata.last_interviewed');
    const history = input.history ?? [];
    for (const entry of history) {
      if (!HISTORY_TYPES.includes(entry.type as (typeof HISTORY_TYPES)[number])) {
        throw new BadRequestException(`history type must be one of ${HISTORY_TYPES.join(', ')}`);
      }
    }
    const now = new Date();
    const profileID = uuidv7(now.getTime());
    await this.dataSource.transaction(async (em) => {
      await em.getRepository(Profile).insert({
        profileID,
        firstName: input.firstName ?? null,
        lastName: input.lastName ?? null,
        metadata,
        details: { ...EMPTY_DETAILS, ...input.details },
        history,
        createdAt: now,
      });
      await em.getRepository(ProfileProduct).insert([...new Set(input.productIDs)].map((productID) => ({ profileID, productID })));
    });
    return profileID;
  }

  /** Visible when any of its products is; productIDs lists only the products the caller can see. */
  async getOne(profileID: string, principal: Principal): Promise<ProfileDto> {
    const profile = await this.profiles.findOneBy({ profileID });
    if (!profile) throw new ProfileNotFoundException(profileID);
    const productIDs = (await this.visibleProductIDs([profileID], principal)).get(profileID) ?? [];
    if (productIDs.length === 0) throw new ProfileNotFoundException(profileID);
    return this.toDto(profile, productIDs);
  }

  async list(query: ListProfilesQueryDto, principal: Principal): Promise<Page<ProfileDto>> {
    const { productID } = query;
    await this.productsService.findVisible(productID, principal);
    const qb = this.profiles
      .createQueryBuilder('pr')
      .innerJoin(ProfileProduct, 'pp', 'pp.profile_id = pr.id')
      .where('pp.product_id = :productID', { productID });
    const rows = await applyPage(qb, 'pr.created_at', 'pr.id', query).getMany();
    const page = toPage(rows, query, (r) => [r.createdAt, r.profileID], (r) => r);
    const productIDs = await this.visibleProductIDs(
      page.items.map((r) => r.profileID),
      principal,
    );
    return { ...page, items: page.items.map((r) => this.toDto(r, productIDs.get(r.profileID) ?? [productID])) };
  }

  private async visibleProductIDs(profileIDs: string[], principal: Principal): Promise<Map<string, string[]>> {
    const out = new Map<string, string[]>();
    const chunk = 500;
    for (let i = 0; i < profileIDs.length; i += chunk) {
      const ids = profileIDs.slice(i, i + chunk);
      const qb = this.dataSource
        .getRepository(ProfileProduct)
        .createQueryBuilder('pp')
        .innerJoin(Product, 'p', 'p.id = pp.product_id')
        .select('pp.profile_id', 'profileID')
        .addSelect('pp.product_id', 'productID')
        .where({ profileID: In(ids) })
        .orderBy('p.created_at', 'ASC')
        .addOrderBy('p.id', 'ASC');
      const scope = productScopeSql(principal, 'p');
      if (scope) qb.andWhere(scope.sql, scope.params);
      for (const row of await qb.getRawMany<{ profileID: string; productID: string }>()) {
        const list = out.get(row.profileID) ?? [];
        list.push(row.productID);
        out.set(row.profileID, list);
      }
    }
    return out;
  }

  private toDto(p: Profile, productIDs: string[]): ProfileDto {
    return {
      profileID: p.profileID,
      productIDs,
      firstName: p.firstName,
      lastName: p.lastName,
      metadata: { ...EMPTY_METADATA, ...p.metadata },
      details: { ...EMPTY_DETAILS, ...p.details },
      history: p.history ?? [],
    };
  }
}
