import { Injectable } from '@nestjs/common';
import { In, type EntityManager } from 'typeorm';
import { Codebook } from '../codebooks/codebook.entity';
import { IN_CHUNK } from '../common/limits';
import { FOR_UPDATE } from '../database/column-types';
import { Interview } from '../interviews/interview.entity';
import { InviteAnswerDigest } from '../invites/invite-answer-digest.entity';
import { InviteAudio } from '../invites/invite-audio.entity';
import { InviteEmailDigest } from '../invites/invite-email-digest.entity';
import { Invite } from '../invites/invite.entity';
import { Product } from '../products/product.entity';
import { Profile, ProfileProduct } from '../profiles/profile.entity';
import { ReportCode } from '../reports/report-code.entity';
import { Report, ReportShare } from '../reports/report.entity';

/** What a cascading deletion removed. */
export interface Removed {
  invites: number;
  reports: number;
  profiles: number;
}

/**
 * The deletions of interviews and products, with what hangs off them. Children go first (report share
 * links, reports, invites, profile links), so that every foreign key holds at each step on both engines
 * and no cascade of the database does work this code does not count.
 */
@Injectable()
export class DeletionRepository {
  /** The product row locked until the transaction ends (MySQL): no interview can be added to it meanwhile. */
  async lockProduct(db: EntityManager, productID: string): Promise<void> {
    await db.getRepository(Product).findOne({ select: { productID: true }, where: { productID }, ...FOR_UPDATE });
  }

  countInvites(db: EntityManager, interviewID: string): Promise<number> {
    return db.getRepository(Invite).countBy({ interviewID });
  }

  async interviewsOf(db: EntityManager, productID: string): Promise<string[]> {
    const interviews = await db.getRepository(Interview).find({ select: { interviewID: true }, where: { productID }, order: { createdAt: 'ASC', interviewID: 'ASC' } });
    return interviews.map((i) => i.interviewID);
  }

  /** Deletes the interviews' share links, report codes, reports, codebooks and invites (with their transcripts, kept recordings, answer digests and e-mail digests), then the interviews. */
  async deleteInterviews(db: EntityManager, interviewIDs: string[]): Promise<Omit<Removed, 'profiles'>> {
    let invites = 0;
    let reports = 0;
    for (let i = 0; i < interviewIDs.length; i += IN_CHUNK) {
      const ids = interviewIDs.slice(i, i + IN_CHUNK);
      // What hangs off their reports and invites goes by a subquery: the database finds the rows, however many.
      const theirReports = db.getRepository(Report).createQueryBuilder('r').select('r.reportID').where('r.interviewID IN (:...ids)').getQuery();
      const theirInvites = db.getRepository(Invite).createQueryBuilder('v').select('v.linkID').where('v.interviewID IN (:...ids)').getQuery();
      await db.createQueryBuilder().delete().from(ReportShare).where(`report_id IN (${theirReports})`, { ids }).execute();
      await db.createQueryBuilder().delete().from(ReportCode).where(`report_id IN (${theirReports})`, { ids }).execute();
      reports += (await db.getRepository(Report).delete({ interviewID: In(ids) })).affected ?? 0;
      await db.getRepository(Codebook).delete({ interviewID: In(ids) });
      await db.createQueryBuilder().delete().from(InviteAudio).where(`link_id IN (${theirInvites})`, { ids }).execute();
      await db.getRepository(InviteAnswerDigest).delete({ interviewID: In(ids) });
      await db.getRepository(InviteEmailDigest).delete({ interviewID: In(ids) });
      invites += (await db.getRepository(Invite).delete({ interviewID: In(ids) })).affected ?? 0;
      await db.getRepository(Interview).delete({ interviewID: In(ids) });
    }
    return { invites, reports };
  }

  /** Takes the product out of every profile, deletes the profiles left without a product; answers how many. */
  async unlinkProfiles(db: EntityManager, productID: string): Promise<number> {
    const links = db.getRepository(ProfileProduct);
    const ids = (await links.find({ select: { profileID: true }, where: { productID } })).map((link) => link.profileID);
    await links.delete({ productID });
    let deleted = 0;
    for (let i = 0; i < ids.length; i += IN_CHUNK) {
      // One statement, the check inside it: the database decides which profiles have no link left as it
      // deletes them, rather than this code from a read that another transaction's new link may outdate.
      const stillLinked = links.createQueryBuilder('pp').select('1').where('pp.profileID = profiles.id').getQuery();
      const result = await db
        .createQueryBuilder()
        .delete()
        .from(Profile)
        .where({ profileID: In(ids.slice(i, i + IN_CHUNK)) })
        .andWhere(`NOT EXISTS (${stillLinked})`)
        .execute();
      deleted += result.affected ?? 0;
    }
    return deleted;
  }

  async deleteProduct(db: EntityManager, productID: string): Promise<void> {
    await db.getRepository(Product).delete({ productID });
  }
}

