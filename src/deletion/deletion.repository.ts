import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { IN_CHUNK } from '../common/limits';
import { FOR_UPDATE_SQL, affectedRows } from '../database/column-types';
import { InviteAudio } from '../invites/invite-audio.entity';

const inList = (n: number) => `(${new Array<string>(n).fill('?').join(', ')})`;

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
    await db.query(`SELECT id FROM products WHERE id = ?${FOR_UPDATE_SQL}`, [productID]);
  }

  async countInvites(db: EntityManager, interviewID: string): Promise<number> {
    const [row] = await db.query<{ n: number | string }[]>('SELECT COUNT(*) AS n FROM invites WHERE interview_id = ?', [interviewID]);
    return Number(row.n);
  }

  async interviewsOf(db: EntityManager, productID: string): Promise<string[]> {
    const rows = await db.query<{ id: string }[]>('SELECT id FROM interviews WHERE product_id = ? ORDER BY created_at, id', [productID]);
    return rows.map((r) => r.id);
  }

  /** Deletes the interviews' share links, report codes, reports, codebooks and invites (with their transcripts and kept recordings), then the interviews. */
  async deleteInterviews(db: EntityManager, interviewIDs: string[]): Promise<Omit<Removed, 'profiles'>> {
    let invites = 0;
    let reports = 0;
    for (let i = 0; i < interviewIDs.length; i += IN_CHUNK) {
      const ids = interviewIDs.slice(i, i + IN_CHUNK);
      const list = inList(ids.length);
      await db.query(`DELETE FROM report_shares WHERE report_id IN (SELECT id FROM reports WHERE interview_id IN ${list})`, ids);
      await db.query(`DELETE FROM report_codes WHERE report_id IN (SELECT id FROM reports WHERE interview_id IN ${list})`, ids);
      reports += await affectedRows(db, `DELETE FROM reports WHERE interview_id IN ${list}`, ids);
      await db.query(`DELETE FROM codebooks WHERE interview_id IN ${list}`, ids);
      await db
        .createQueryBuilder()
        .delete()
        .from(InviteAudio)
        .where('link_id IN (SELECT i.link_id FROM invites i WHERE i.interview_id IN (:...ids))', { ids })
        .execute();
      invites += await affectedRows(db, `DELETE FROM invites WHERE interview_id IN ${list}`, ids);
      await db.query(`DELETE FROM interviews WHERE id IN ${list}`, ids);
    }
    return { invites, reports };
  }

  /** Takes the product out of every profile, deletes the profiles left without a product; answers how many. */
  async unlinkProfiles(db: EntityManager, productID: string): Promise<number> {
    const rows = await db.query<{ id: string }[]>('SELECT profile_id AS id FROM profile_products WHERE product_id = ?', [productID]);
    await db.query('DELETE FROM profile_products WHERE product_id = ?', [productID]);
    let deleted = 0;
    const ids = rows.map((r) => r.id);
    for (let i = 0; i < ids.length; i += IN_CHUNK) {
      const chunk = ids.slice(i, i + IN_CHUNK);
      deleted += await affectedRows(
        db,
        `DELETE FROM profiles WHERE id IN ${inList(chunk.length)} AND NOT EXISTS (SELECT 1 FROM profile_products pp WHERE pp.profile_id = profiles.id)`,
        chunk,
      );
    }
    return deleted;
  }

  async deleteProduct(db: EntityManager, productID: string): Promise<void> {
    await db.query('DELETE FROM products WHERE id = ?', [productID]);
  }
}
