import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AccessService } from '../access/access.service';
import type { Principal } from '../auth/principal';
import { uuidv7 } from '../common/ids';
import { Page, SqlWhere, pagedSql, toPage } from '../common/keyset';
import { validateInput } from '../common/validation';
import { rawDate } from '../database/column-types';
import { NewProfileDto } from './dto/new-profile.dto';
import { ProfileDto } from './dto/profile.dto';
import { ListProfilesQueryDto } from './dto/profile-queries.dto';
import { Profile, ProfileProduct } from './profile.entity';
import { EMPTY_DETAILS, EMPTY_METADATA, PROFILE_KEYS, PROFILE_LIST, ProfileRow, profileFromRow } from './profiles.sql';

@Injectable()
export class ProfilesService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly access: AccessService,
  ) {}

  /** Domain write (profiles are read-only under /v1), validated like an HTTP body. Returns the new profileID. */
  async create(input: NewProfileDto): Promise<string> {
    const p = validateInput(NewProfileDto, input);
    const now = new Date();
    const profileID = uuidv7(now.getTime());
    const metadata = { ...EMPTY_METADATA, ...p.metadata };
    // Times are stored as the API shows them: ISO-8601 UTC with milliseconds.
    for (const key of ['acquired_date', 'last_interviewed'] as const) {
      const value = metadata[key];
      if (value) metadata[key] = new Date(value).toISOString();
    }
    await this.dataSource.transaction(async (db) => {
      await db.getRepository(Profile).insert({
        profileID,
        firstName: p.firstName ?? null,
        lastName: p.lastName ?? null,
        metadata,
        details: { ...EMPTY_DETAILS, ...p.details },
        history: p.history ?? [],
        createdAt: now,
      });
      await db.getRepository(ProfileProduct).insert([...new Set(p.productIDs)].map((productID) => ({ profileID, productID })));
    });
    return profileID;
  }

  /** Visible when any of its products is; productIDs lists only the products the caller can see. */
  async getOne(profileID: string, principal: Principal): Promise<ProfileDto> {
    const { profile, productIDs } = await this.access.profile(principal, profileID);
    return profileFromRow(profile, productIDs);
  }

  async list(query: ListProfilesQueryDto, principal: Principal): Promise<Page<ProfileDto>> {
    const { productID } = query;
    await this.access.product(principal, productID);
    const where = new SqlWhere().and('pp.product_id = ?', productID);
    const { sql, params } = pagedSql(PROFILE_LIST, where, PROFILE_KEYS, query);
    const rows: ProfileRow[] = await this.dataSource.query(sql, params);
    const page = toPage(rows, query, (r) => [rawDate(r.createdAt), r.profileID], (r) => r);
    const productIDs = await this.access.visibleProductsOfProfiles(
      principal,
      page.items.map((r) => r.profileID),
    );
    return { ...page, items: page.items.map((r) => profileFromRow(r, productIDs.get(r.profileID) ?? [productID])) };
  }
}
