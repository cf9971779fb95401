import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { FOR_UPDATE } from '../database/column-types';
import { Recruitment } from './recruitment.entity';

/** What the open link needs beside the recruitment: the interview's and product's public face, and the invite's owner. */
export interface OpenStudy {
  recruitment: Recruitment;
  productID: string;
  /** The product's organization: the owner of the invites the open link makes. */
  orgID: string | null;
  interviewName: string;
  publicTitle: string | null;
  interviewLanguage: string | null;
  productName: string;
  productImage: string | null;
}

/** The recruitments table. */
@Injectable()
export class RecruitmentRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  find(interviewID: string, db: EntityManager = this.dataSource.manager): Promise<Recruitment | null> {
    return db.getRepository(Recruitment).findOneBy({ interviewID });
  }

  /** The recruitment behind an open link, with its interview and product, in one query. */
  async findOpen(openID: string): Promise<OpenStudy | undefined> {
    const found = await this.dataSource
      .getRepository(Recruitment)
      .createQueryBuilder('r')
      .innerJoin('r.interview', 'iv')
      .innerJoin('iv.product', 'p')
      .addSelect(['iv.interviewID', 'iv.productID', 'iv.interviewName', 'iv.publicTitle', 'iv.language', 'p.productID', 'p.orgID', 'p.name', 'p.imageLink'])
      .where('r.openID = :openID', { openID })
      .getOne();
    if (!found) return undefined;
    const { interview, ...recruitment } = found;
    const product = interview!.product!;
    return {
      recruitment,
      productID: product.productID,
      orgID: product.orgID,
      interviewName: interview!.interviewName,
      publicTitle: interview!.publicTitle,
      interviewLanguage: interview!.language,
      productName: product.name,
      productImage: product.imageLink,
    };
  }

  /** Replaces the settings; the openID given is only written when the row is new (it stays the same across updates). */
  async save(recruitment: Recruitment, db: EntityManager): Promise<Recruitment> {
    const repo = db.getRepository(Recruitment);
    const existing = await repo.findOne({ where: { interviewID: recruitment.interviewID }, ...FOR_UPDATE });
    const row = { ...recruitment, openID: existing?.openID ?? recruitment.openID };
    if (existing) await repo.update({ interviewID: row.interviewID }, row);
    else await repo.insert(row);
    return row;
  }

  /**
   * Locks the interview's recruitment row until the transaction ends (MySQL; SQLite has one writer):
   * every decision about a place (an arrival, a start) for the interview waits for the one before it,
   * in every process.
   */
  async lock(db: EntityManager, interviewID: string): Promise<boolean> {
    return (await db.getRepository(Recruitment).findOne({ select: { interviewID: true }, where: { interviewID }, ...FOR_UPDATE })) !== null;
  }
}
