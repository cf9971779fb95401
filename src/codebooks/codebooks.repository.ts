import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import type { CodebookQuestion } from './codebook.types';
import { Codebook } from './codebook.entity';

/** The codebooks table. */
@Injectable()
export class CodebooksRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The interview's codebook questions; [] when it has none. */
  async questionsOf(interviewID: string, db: EntityManager = this.dataSource.manager): Promise<CodebookQuestion[]> {
    return (await db.getRepository(Codebook).findOneBy({ interviewID }))?.questions ?? [];
  }

  /** Replaces the interview's codebook (an empty one is deleted: "none" is one state, not two). */
  async replace(interviewID: string, questions: CodebookQuestion[], now: Date, db: EntityManager = this.dataSource.manager): Promise<void> {
    const repo = db.getRepository(Codebook);
    if (questions.length === 0) {
      await repo.delete({ interviewID });
      return;
    }
    // One statement on both engines (INSERT … ON DUPLICATE KEY UPDATE / ON CONFLICT): two teams saving at once cannot collide.
    await repo.upsert({ interviewID, questions, updatedAt: now }, { conflictPaths: ['interviewID'] });
  }
}
