import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { AccessService } from '../access/access.service';
import type { Principal } from '../auth/principal';
import { uuidv7 } from '../common/ids';
import { splitName } from '../common/names';
import { Page, SqlWhere, pagedSql, toPage } from '../common/keyset';
import { validateInput } from '../common/validation';
import { FOR_UPDATE_SQL, rawDate } from '../database/column-types';
import { WebhookOutbox } from '../webhooks/webhook-outbox.service';
import { NewProfileDetails, NewProfileDto } from './dto/new-profile.dto';
import { ProfileDto } from './dto/profile.dto';
import { ListProfilesQueryDto } from './dto/profile-queries.dto';
import { HistoryEntry, Profile, ProfileDetails, ProfileMetadata, ProfileProduct } from './profile.entity';
import { PROFILE_LIMITS } from './profile.limits';
import { foldMean, sentimentOf } from './sentiment';
import { EMPTY_DETAILS, EMPTY_METADATA, PROFILE_KEYS, PROFILE_LIST, ProfileRow, profileFromRow } from './profiles.sql';

/** A completed interview, as the profile of its interviewee learns from it. */
export interface CompletedInterview {
  linkID: string;
  productID: string;
  /** The profile belongs to the invite's organization, or, when it has none, to the product's user. */
  orgID: string | null;
  productUserID: string | null;
  person: { email: string | null; name: string | null; occupation: string | null };
  completedOn: Date;
  /** What the interviewee said, each turn scored for sentiment. */
  answers: readonly string[];
  /** An LLM agent's summary; null from the built-in agent, which leaves these details as they are. */
  summary: Pick<ProfileDetails, 'background' | 'productAlignment' | 'key_values' | 'interests'> | null;
}

const OWNED_PROFILE = `SELECT id AS profileID, first_name AS firstName, last_name AS lastName, metadata, details, history, sentiment_turns AS sentimentTurns
  FROM profiles WHERE owner_key = ? AND email = ?`;

/** Whose interviewees' profiles these are: the organization, else the user; null when the product has neither (it cannot). */
function ownerKeyOf(c: Pick<CompletedInterview, 'orgID' | 'productUserID'>): string | null {
  if (c.orgID !== null) return `org:${c.orgID}`;
  return c.productUserID !== null ? `user:${c.productUserID}` : null;
}

/** Items of both lists, the existing first, without repeats, at most the profile's limit. */
function union(a: readonly string[], b: readonly string[]): string[] {
  return [...new Set([...a, ...b])].slice(0, PROFILE_LIMITS.listItems);
}

@Injectable()
export class ProfilesService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly access: AccessService,
    private readonly outbox: WebhookOutbox,
  ) {}

  /** Domain write (profiles are read-only under /v1), validated like an HTTP body. Returns the new profileID. */
  async create(input: NewProfileDto): Promise<string> {
    return this.dataSource.transaction((db) => this.insert(db, input, { ownerKey: null, email: null, sentimentTurns: 0 }));
  }

  /**
   * What a completed interview adds to its interviewee's profile, in the caller's transaction (the one
   * that completes the invite). The profile is found by the owner and the email, case-insensitively,
   * or created; an invite already in its history is never counted again. Returns the profileID.
   */
  async recordInterview(db: EntityManager, c: CompletedInterview): Promise<string | null> {
    const ownerKey = ownerKeyOf(c);
    const email = c.person.email?.trim().toLowerCase() || null;
    if (ownerKey === null || email === null) return null;
    const scores = c.answers.map(sentimentOf);
    const at = c.completedOn.toISOString();
    const [found]: (ProfileRow & { sentimentTurns: number })[] = await db.query(OWNED_PROFILE + FOR_UPDATE_SQL, [ownerKey, email]);
    if (!found) {
      const { first, rest } = splitName(c.person.name);
      const sentiment = foldMean(null, 0, scores);
      return this.insert(
        db,
        {
          productIDs: [c.productID],
          firstName: first,
          lastName: rest,
          metadata: { source: 'interview', acquired_date: at, last_interviewed: at, interview_count: 1, sentiment: sentiment.mean },
          details: { occupation: c.person.occupation, ...c.summary },
          history: [{ type: 'invite', id: c.linkID }],
        },
        { ownerKey, email, sentimentTurns: sentiment.count },
        c.completedOn,
      );
    }
    const history = JSON.parse(found.history) as HistoryEntry[];
    if (history.some((h) => h.type === 'invite' && h.id === c.linkID)) return found.profileID;
    const metadata: ProfileMetadata = { ...EMPTY_METADATA, ...(JSON.parse(found.metadata ?? 'null') as ProfileMetadata | null) };
    const details: ProfileDetails = { ...EMPTY_DETAILS, ...(JSON.parse(found.details ?? 'null') as ProfileDetails | null) };
    const sentiment = foldMean(metadata.sentiment, Number(found.sentimentTurns), scores);
    const next = {
      metadata: { ...metadata, last_interviewed: at, interview_count: (metadata.interview_count ?? 0) + 1, sentiment: sentiment.mean },
      details: {
        ...details,
        occupation: c.person.occupation ?? details.occupation,
        background: c.summary?.background ?? details.background,
        productAlignment: c.summary?.productAlignment ?? details.productAlignment,
        key_values: union(details.key_values, c.summary?.key_values ?? []),
        interests: union(details.interests, c.summary?.interests ?? []),
      },
      history: [...history, { type: 'invite', id: c.linkID }].slice(-PROFILE_LIMITS.history),
    };
    validateInput(NewProfileDetails, next.details);
    await db.query('UPDATE profiles SET metadata = ?, details = ?, history = ?, sentiment_turns = ? WHERE id = ?', [
      JSON.stringify(next.metadata),
      JSON.stringify(next.details),
      JSON.stringify(next.history),
      sentiment.count,
      found.profileID,
    ]);
    const [linked] = await db.query('SELECT 1 AS yes FROM profile_products WHERE profile_id = ? AND product_id = ?', [found.profileID, c.productID]);
    if (!linked) await db.getRepository(ProfileProduct).insert({ profileID: found.profileID, productID: c.productID });
    await this.outbox.profileChanged(db, found.profileID, 'profile.updated', c.completedOn);
    return found.profileID;
  }

  private async insert(
    db: EntityManager,
    input: NewProfileDto,
    matching: Pick<Profile, 'ownerKey' | 'email' | 'sentimentTurns'>,
    now = new Date(),
  ): Promise<string> {
    const p = validateInput(NewProfileDto, input);
    const profileID = uuidv7(now.getTime());
    const metadata = { ...EMPTY_METADATA, ...p.metadata };
    // Times are stored as the API shows them: ISO-8601 UTC with milliseconds.
    for (const key of ['acquired_date', 'last_interviewed'] as const) {
      const value = metadata[key];
      if (value) metadata[key] = new Date(value).toISOString();
    }
    await db.getRepository(Profile).insert({
      profileID,
      firstName: p.firstName ?? null,
      lastName: p.lastName ?? null,
      metadata,
      details: { ...EMPTY_DETAILS, ...p.details },
      history: p.history ?? [],
      createdAt: now,
      ...matching,
    });
    await db.getRepository(ProfileProduct).insert([...new Set(p.productIDs)].map((productID) => ({ profileID, productID })));
    await this.outbox.profileChanged(db, profileID, 'profile.created', now);
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
