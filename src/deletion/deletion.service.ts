import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { Principal } from '../auth/principal';
import { transaction } from '../database/transaction';
import { InterviewsService } from '../interviews/interviews.service';
import { ProductsService } from '../products/products.service';
import { InterviewHasInvitesException, ProductHasInterviewsException } from './deletion.errors';
import { DeletionRepository, Removed } from './deletion.repository';

/**
 * interviews/deleteOne and products/deleteOne. Each is one transaction that locks the record first, so
 * that nothing is added to it between the check and the deletion; without `cascade` a record with
 * anything under it is refused (409) and nothing is written.
 */
@Injectable()
export class DeletionService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly deletion: DeletionRepository,
    private readonly interviews: InterviewsService,
    private readonly products: ProductsService,
  ) {}

  async deleteInterview(interviewID: string, cascade: boolean, principal: Principal): Promise<{ interviewID: string; status: 'deleted' } & Removed> {
    const removed = await transaction(this.dataSource, async (db) => {
      await this.interviews.requireVisible(principal, interviewID, { db, lock: true });
      const invites = await this.deletion.countInvites(db, interviewID);
      if (invites > 0 && !cascade) throw new InterviewHasInvitesException(interviewID, invites);
      // Profiles stay: they belong to the product, which stays (products/deleteOne takes them out).
      return { ...(await this.deletion.deleteInterviews(db, [interviewID])), profiles: 0 };
    });
    return { interviewID, status: 'deleted', ...removed };
  }

  async deleteProduct(productID: string, cascade: boolean, principal: Principal): Promise<{ productID: string; status: 'deleted' } & Removed> {
    const removed = await transaction(this.dataSource, async (db) => {
      await this.products.requireVisible(principal, productID, db);
      await this.deletion.lockProduct(db, productID);
      const interviewIDs = await this.deletion.interviewsOf(db, productID);
      if (interviewIDs.length > 0 && !cascade) throw new ProductHasInterviewsException(productID, interviewIDs.length);
      const { invites, reports } = await this.deletion.deleteInterviews(db, interviewIDs);
      const profiles = await this.deletion.unlinkProfiles(db, productID);
      await this.deletion.deleteProduct(db, productID);
      return { invites, reports, profiles };
    });
    return { productID, status: 'deleted', ...removed };
  }
}
