import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { In, type DataSource, type EntityManager } from 'typeorm';
import { ApiToken } from '../auth/api-token.entity';
import { InviteAnswerDigest } from '../invites/invite-answer-digest.entity';
import { InviteAudio } from '../invites/invite-audio.entity';
import { InviteEmailDigest } from '../invites/invite-email-digest.entity';
import { Invite } from '../invites/invite.entity';
import { OwnerFilter, ownedWithin, type Owned } from '../access/access-rule';
import { INVITE_FIELDS, type InviteView } from '../invites/invites.repository';
import { IN_CHUNK } from '../common/limits';
import { KeysetList, SqlCondition } from '../common/keyset';
import { forUpdate } from '../database/column-types';
import { Interview } from '../interviews/interview.entity';
import { Profile, ProfileProduct } from '../profiles/profile.entity';
import { OwnedProduct, ProfilesRepository } from '../profiles/profiles.repository';
import { Erasure } from './erasure.entity';

/** Whose interviewees: an organization, or (for invites without one) the user owning the product, as profiles are kept. */
export type DataOwner = { kind: 'org'; id: string } | { kind: 'user'; id: string };

export function ownerKeyOf(owner: DataOwner): string {
  return `${owner.kind}:${owner.id}`;
}

/** An invite as an erasure or an export finds it, with who sees its product. */
export type PersonInvite = InviteView & { product: Owned };

/** A finished invite the retention sweep found due, with its product's owners. */
export type DueInvite = Pick<Invite, 'linkID' | 'interviewID' | 'productID' | 'orgID' | 'userInfo'> & { product: Owned };

export interface NewErasure {
  erasureID: string;
  owner: DataOwner;
  by: string;
  emailSha256: string;
  invites: number;
  profiles: number;
  reports: number;
}

/** The statuses after which nothing more happens to an invite: what retention may erase. */
export const FINISHED_STATUSES = ['completed', 'abandoned', 'expired', 'revoked', 'screenedout', 'overquota'] as const;

/**
 * The SQL of the data rights: finding a person's invites and profiles within an owner, erasing them,
 * taking their quotes out of reports, the audit of erasures, and the retention sweep's claim. It works
 * across the invites, profiles and reports tables because an erasure must reach all of them in one
 * transaction.
 */
@Injectable()
export class ParticipantsRepository {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly profiles: ProfilesRepository,
  ) {}

  /**
   * The owner's unerased invites whose userInfo mentions the address (lower-cased), oldest first; the
   * caller checks the email field itself. With `lock`, locked until the transaction ends (MySQL).
   */
  async invitesMentioning(db: EntityManager, owner: DataOwner, email: string, lock: boolean): Promise<PersonInvite[]> {
    const qb = db
      .getRepository(Invite)
      .createQueryBuilder('i')
      .select(INVITE_FIELDS.map((f) => `i.${f}`))
      .innerJoin('i.product', 'p')
      .addSelect(['p.productID', 'p.orgID', 'p.userID']);
    if (owner.kind === 'org') qb.where('i.orgID = :ownerID', { ownerID: owner.id });
    else qb.where('i.orgID IS NULL AND p.userID = :ownerID', { ownerID: owner.id });
    // The address is looked for in the stored JSON as JSON writes it; LOWER() makes the match case-insensitive.
    qb.andWhere('i.userInfo IS NOT NULL AND INSTR(LOWER(i.userInfo), :needle) > 0', { needle: JSON.stringify(email).slice(1, -1) });
    qb.orderBy('i.createdAt', 'ASC').addOrderBy('i.linkID', 'ASC');
    const invites = await (lock ? forUpdate(qb) : qb).getMany();
    return invites.map(({ product, ...invite }) => ({ ...invite, product: { orgID: product!.orgID, userID: product!.userID } }));
  }

  /** Clears the invites' person and transcript, deletes the recordings and digests kept of their answers and the digest of their address, and marks them erased. */
  async eraseInvites(db: EntityManager, linkIDs: readonly string[], now: Date): Promise<void> {
    for (let i = 0; i < linkIDs.length; i += IN_CHUNK) {
      const ids = linkIDs.slice(i, i + IN_CHUNK);
      await db.getRepository(InviteAudio).delete({ linkID: In(ids) });
      await db.getRepository(InviteAnswerDigest).delete({ linkID: In(ids) });
      await db.getRepository(InviteEmailDigest).delete({ linkID: In(ids) });
      // The panel's id, its passthrough values and the screener's answers are the person's too (the segment and quality stay: no one is in them).
      await db
        .getRepository(Invite)
        .update(
          { linkID: In(ids) },
          { userInfo: null, conversation: [], turnMeta: [], answerCount: 0, participantID: null, passthrough: null, screener: null, erasedOn: now, updatedAt: now },
        );
    }
  }

  /** The interviewee turns and the given name of each invite, in the caller's transaction (an erasure's, before it clears them). */
  async whatTheySaid(db: EntityManager, linkIDs: readonly string[]): Promise<Map<string, { answers: string[]; name: string | null }>> {
    const out = new Map<string, { answers: string[]; name: string | null }>();
    for (let i = 0; i < linkIDs.length; i += IN_CHUNK) {
      const invites = await db.getRepository(Invite).find({ select: { linkID: true, conversation: true, userInfo: true }, where: { linkID: In(linkIDs.slice(i, i + IN_CHUNK)) } });
      for (const invite of invites) {
        out.set(invite.linkID, { answers: invite.conversation.filter((turn) => turn.role === 'interviewee').map((turn) => turn.content), name: invite.userInfo?.name ?? null });
      }
    }
    return out;
  }

  /** The owner's profile of this address (lower-cased), with its products and their owners. With `lock`, locked until the transaction ends (MySQL). */
  async profileOf(db: EntityManager, owner: DataOwner, email: string, lock: boolean): Promise<{ profileID: string; products: OwnedProduct[] } | undefined> {
    const profile = await this.profiles.findMatching(db, ownerKeyOf(owner), email, { lock });
    if (!profile) return undefined;
    return { profileID: profile.profileID, products: await this.profiles.productsWithOwners(db, profile.profileID) };
  }

  async deleteProfile(db: EntityManager, profileID: string): Promise<number> {
    await db.getRepository(ProfileProduct).delete({ profileID });
    return (await db.getRepository(Profile).delete({ profileID })).affected ?? 0;
  }

  async insertErasure(db: EntityManager, e: NewErasure, now: Date): Promise<void> {
    await db.getRepository(Erasure).insert({
      erasureID: e.erasureID,
      orgID: e.owner.kind === 'org' ? e.owner.id : null,
      userID: e.owner.kind === 'user' ? e.owner.id : null,
      by: e.by,
      emailSha256: e.emailSha256,
      invites: e.invites,
      profiles: e.profiles,
      reports: e.reports,
      createdAt: now,
    });
  }

  /** Erasures of an organization and/or a user, within what the caller may see (a condition on `e`), in the lists' order. */
  listErasures(filter: OwnerFilter, scope: SqlCondition | undefined): KeysetList<Erasure> {
    return new KeysetList<Erasure>({
      query: () => ownedWithin(this.dataSource.getRepository(Erasure).createQueryBuilder('e'), filter, scope),
      keys: { created: 'e.createdAt', id: 'e.erasureID' },
      keyOf: (e) => ({ createdAt: e.createdAt, id: e.erasureID }),
    });
  }

  /** The name of the token erasing (the audit's "by"). */
  async tokenName(tokenID: string): Promise<string | null> {
    return (await this.dataSource.getRepository(ApiToken).findOne({ select: { name: true }, where: { id: tokenID } }))?.name ?? null;
  }

  /**
   * Up to `limit` finished, unerased invites last changed on or before `cutoff`, of interviews kept
   * `days` days (null: interviews without their own retentionDays), locked; on MySQL each instance takes
   * rows the others have not locked (SKIP LOCKED).
   */
  async lockDueForRetention(db: EntityManager, days: number | null, cutoff: Date, limit: number): Promise<DueInvite[]> {
    const qb = db
      .getRepository(Invite)
      .createQueryBuilder('i')
      .select(['i.linkID', 'i.interviewID', 'i.productID', 'i.orgID', 'i.userInfo'])
      .innerJoin('i.interview', 'iv')
      .innerJoin('i.product', 'p')
      .addSelect(['p.productID', 'p.orgID', 'p.userID'])
      .where('i.status IN (:...finished)', { finished: FINISHED_STATUSES })
      .andWhere('i.updatedAt <= :cutoff', { cutoff })
      .andWhere('i.erasedOn IS NULL');
    if (days === null) qb.andWhere('iv.retentionDays IS NULL');
    else qb.andWhere('iv.retentionDays = :days', { days });
    const due = await forUpdate(qb.orderBy('i.updatedAt', 'ASC').limit(limit), { skipLocked: true }).getMany();
    return due.map(({ product, ...invite }) => ({ ...invite, product: { orgID: product!.orgID, userID: product!.userID } }));
  }

  /** The retention periods interviews set for themselves. */
  async retentionPeriods(): Promise<number[]> {
    const rows = await this.dataSource
      .getRepository(Interview)
      .createQueryBuilder('iv')
      .select('iv.retentionDays', 'days')
      .distinct(true)
      .where('iv.retentionDays IS NOT NULL')
      .getRawMany<{ days: number }>();
    return rows.map((r) => r.days);
  }
}
