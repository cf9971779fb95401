import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { AccessService } from '../access/access.service';
import type { Principal } from '../auth/principal';
import { uuidv7 } from '../common/ids';
import { splitName } from '../common/names';
import { ListAnswer, answerList } from '../common/keyset';
import { validateInput } from '../common/validation';
import { ProductsService } from '../products/products.service';
import { WebhookOutbox } from '../webhooks/webhook-outbox.service';
import { NewProfileDetails, NewProfileDto } from './dto/new-profile.dto';
import { ProfileDto } from './dto/profile.dto';
import { ListProfilesQueryDto } from './dto/profile-queries.dto';
import { Profile, ProfileDetails, ProfileMetadata } from './profile.entity';
import { PROFILE_LIMITS } from '../domain/profile.limits';
import { ProfileNotFoundException } from './profiles.errors';
import { ProfilesRepository } from './profiles.repository';
import { foldMean } from './sentiment';
import { transaction } from '../database/transaction';

/** A completed interview, as the profile of its interviewee learns from it. */
export interface CompletedInterview {
  linkID: string;
  productID: string;
  /** The profile belongs to the invite's organization, or, when it has none, to the product's user. */
  orgID: string | null;
  productUserID: string | null;
  person: { email: string | null; name: string | null; occupation: string | null };
  completedOn: Date;
  /** The sentiment of each of the interviewee's answers; null for one that could not be scored (see answerSentiment). */
  scores: readonly (number | null)[];
  /** An LLM agent's summary; null from the built-in agent, which leaves these details as they are. */
  summary: Pick<ProfileDetails, 'background' | 'productAlignment' | 'key_values' | 'interests'> | null;
}

export const EMPTY_METADATA: ProfileMetadata = { source: null, acquired_date: null, last_interviewed: null, interview_count: null, sentiment: null };
export const EMPTY_DETAILS: ProfileDetails = { occupation: null, location: null, background: null, productAlignment: null, key_values: [], interests: [] };

/** A profile as the API shows it, with the products the caller may see. */
export function profileDtoOf(r: Profile, productIDs: string[]): ProfileDto {
  return {
    profileID: r.profileID,
    productIDs,
    firstName: r.firstName,
    lastName: r.lastName,
    metadata: { ...EMPTY_METADATA, ...r.metadata },
    details: { ...EMPTY_DETAILS, ...r.details },
    history: r.history,
  };
}

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
    private readonly profiles: ProfilesRepository,
    private readonly products: ProductsService,
    private readonly access: AccessService,
    private readonly outbox: WebhookOutbox,
  ) {}

  /** Domain write (profiles are read-only under /v1), validated like an HTTP body. Returns the new profileID. */
  async create(input: NewProfileDto): Promise<string> {
    return transaction(this.dataSource, (db) => this.insert(db, input, { ownerKey: null, email: null, sentimentTurns: 0 }));
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
    const scores = c.scores.filter((score) => score !== null);
    const at = c.completedOn.toISOString();
    const found = await this.profiles.findMatching(db, ownerKey, email, { lock: true });
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
    const history = found.history;
    if (history.some((h) => h.type === 'invite' && h.id === c.linkID)) return found.profileID;
    const metadata: ProfileMetadata = { ...EMPTY_METADATA, ...found.metadata };
    const details: ProfileDetails = { ...EMPTY_DETAILS, ...found.details };
    const sentiment = foldMean(metadata.sentiment, found.sentimentTurns, scores);
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
      sentimentTurns: sentiment.count,
    };
    validateInput(NewProfileDetails, next.details);
    await this.profiles.update(db, found.profileID, next);
    await this.profiles.linkProduct(db, found.profileID, c.productID);
    await this.announce(db, found.profileID, 'profile.updated', c.completedOn);
    return found.profileID;
  }

  private async insert(db: EntityManager, input: NewProfileDto, matching: Pick<Profile, 'ownerKey' | 'email' | 'sentimentTurns'>, now = new Date()): Promise<string> {
    const p = validateInput(NewProfileDto, input);
    const profileID = uuidv7();
    const metadata = { ...EMPTY_METADATA, ...p.metadata };
    // Times are stored as the API shows them: ISO-8601 UTC with milliseconds.
    for (const key of ['acquired_date', 'last_interviewed'] as const) {
      const value = metadata[key];
      if (value) metadata[key] = new Date(value).toISOString();
    }
    const row: Profile = {
      profileID,
      firstName: p.firstName ?? null,
      lastName: p.lastName ?? null,
      metadata,
      details: { ...EMPTY_DETAILS, ...p.details },
      history: p.history ?? [],
      createdAt: now,
      ...matching,
    };
    await this.profiles.insert(db, row, [...new Set(p.productIDs)]);
    await this.announce(db, profileID, 'profile.created', now);
    return profileID;
  }

  /** profile.created or profile.updated to the webhook endpoints that see any of its products. */
  private async announce(db: EntityManager, profileID: string, type: 'profile.created' | 'profile.updated', at: Date): Promise<void> {
    const products = await this.profiles.productsWithOwners(db, profileID);
    await this.outbox.write(db, [{ type, products, data: (productIDs) => ({ profileID, productIDs }) }], at);
  }

  /** Visible when any of its products is; productIDs lists only the products the caller can see. */
  async getOne(profileID: string, principal: Principal): Promise<ProfileDto> {
    const profile = await this.profiles.findById(profileID);
    const productIDs = profile ? ((await this.profiles.productsOf([profileID], this.access.listScope(principal, 'p'))).get(profileID) ?? []) : [];
    if (!profile || productIDs.length === 0) throw new ProfileNotFoundException(profileID);
    return profileDtoOf(profile, productIDs);
  }

  async list(query: ListProfilesQueryDto, principal: Principal): Promise<ListAnswer<ProfileDto>> {
    await this.products.requireVisible(principal, query.productID);
    return answerList(query, this.profiles.list(query.productID), async (rows) => {
      const productIDs = await this.profiles.productsOf(
        rows.map((r) => r.profileID),
        this.access.listScope(principal, 'p'),
      );
      return rows.map((r) => profileDtoOf(r, productIDs.get(r.profileID) ?? [query.productID]));
    });
  }

  async count(): Promise<number> {
    return this.profiles.count();
  }
}
