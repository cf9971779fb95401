import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, Repository } from 'typeorm';
import type { Principal } from '../auth/principal';
import { canSee } from '../auth/scope';
import { AppConfig } from '../config/app-config';
import { InterviewHasInvitesException, InterviewNotFoundException, ProductNotFoundException } from '../common/errors';
import { uuidv7 } from '../common/ids';
import { rawDate } from '../database/column-types';
import { Page, applyPage, toPage } from '../common/pagination';
import { Invite } from '../invites/invite.entity';
import { Product } from '../products/product.entity';
import { ProductsService } from '../products/products.service';
import { CreateInterviewDto } from './dto/create-interview.dto';
import { InterviewDto } from './dto/interview.dto';
import { ListInterviewsQueryDto } from './dto/interview-queries.dto';
import { UpdateInterviewDto } from './dto/update-interview.dto';
import { Interview } from './interview.entity';

function toDto(i: InterviewDto): InterviewDto {
  return {
    interviewID: i.interviewID,
    productID: i.productID,
    interviewName: i.interviewName,
    guidelines: i.guidelines,
    userID: i.userID,
    interviewer: i.interviewer,
  };
}

@Injectable()
export class InterviewsService {
  constructor(
    @InjectRepository(Interview) private readonly interviews: Repository<Interview>,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly productsService: ProductsService,
    private readonly config: AppConfig,
  ) {}

  async create(dto: CreateInterviewDto, principal: Principal): Promise<{ interviewID: string }> {
    await this.productsService.findVisible(dto.productID, principal);
    const now = new Date();
    const interviewID = uuidv7(now.getTime());
    await this.interviews.insert({
      interviewID,
      productID: dto.productID,
      interviewName: dto.interviewName,
      guidelines: dto.guidelines ?? null,
      userID: dto.userID ?? null,
      interviewer: this.config.defaultInterviewer,
      createdAt: now,
      updatedAt: now,
    });
    return { interviewID };
  }

  async update(dto: UpdateInterviewDto, principal: Principal): Promise<{ interviewID: string; status: 'updated' }> {
    const changes: Partial<Interview> = {};
    if (dto.interviewName !== undefined) changes.interviewName = dto.interviewName;
    if (dto.guidelines !== undefined) changes.guidelines = dto.guidelines;
    if (dto.userID !== undefined) changes.userID = dto.userID;
    if (dto.interviewer !== undefined) changes.interviewer = dto.interviewer || this.config.defaultInterviewer;

    // Read, check and write in one transaction so that a concurrent createInvites cannot slip
    // invites in between the "no invites yet" check and the move.
    await this.dataSource.transaction(async (em) => {
      const interview = await this.findVisibleForUpdate(em.getRepository(Interview), em.getRepository(Product), dto.interviewID, principal);
      if (dto.productID !== undefined && dto.productID !== interview.productID) {
        const target = await em.getRepository(Product).findOneBy({ productID: dto.productID });
        if (!target || !canSee(principal, target)) throw new ProductNotFoundException(dto.productID);
        const hasInvites = await em.getRepository(Invite).exists({ where: { interviewID: interview.interviewID } });
        if (hasInvites) throw new InterviewHasInvitesException(interview.interviewID);
        changes.productID = dto.productID;
      }
      if (Object.keys(changes).length > 0) {
        await em.getRepository(Interview).update({ interviewID: interview.interviewID }, { ...changes, updatedAt: new Date() });
      }
    });
    return { interviewID: dto.interviewID, status: 'updated' };
  }

  async getOne(interviewID: string, principal: Principal): Promise<InterviewDto> {
    return toDto(await this.findVisible(interviewID, principal));
  }

  async list(query: ListInterviewsQueryDto, principal: Principal): Promise<Page<InterviewDto>> {
    await this.productsService.findVisible(query.productID, principal);
    const qb = this.interviews
      .createQueryBuilder('i')
      .select('i.id', 'interviewID')
      .addSelect('i.product_id', 'productID')
      .addSelect('i.name', 'interviewName')
      .addSelect('i.guidelines', 'guidelines')
      .addSelect('i.user_id', 'userID')
      .addSelect('i.interviewer', 'interviewer')
      .addSelect('i.created_at', 'createdAt')
      .where('i.product_id = :productID', { productID: query.productID });
    const rows = await applyPage(qb, 'i.created_at', 'i.id', query).getRawMany<InterviewDto & { createdAt: Date | string }>();
    return toPage(rows, query, (r) => [rawDate(r.createdAt), r.interviewID], toDto);
  }

  /** The interview when it exists and its product is visible to the caller; otherwise 404. */
  async findVisible(interviewID: string, principal: Principal): Promise<Interview> {
    const { interview } = await this.findVisibleWithOwners(interviewID, principal);
    return interview;
  }

  /** One query: the interview and its product's owners (which decide visibility); 404 when not visible. */
  async findVisibleWithOwners(interviewID: string, principal: Principal): Promise<{ interview: Interview; product: Pick<Product, 'productID' | 'orgID' | 'userID'> }> {
    const interview = await this.interviews
      .createQueryBuilder('i')
      .innerJoin('i.product', 'p')
      .addSelect(['p.productID', 'p.orgID', 'p.userID'])
      .where('i.id = :interviewID', { interviewID })
      .getOne();
    const product = interview?.product;
    if (!interview || !product || !canSee(principal, product)) throw new InterviewNotFoundException(interviewID);
    delete interview.product;
    return { interview, product };
  }

  /** Inside a transaction: the interview row locked on MySQL (two queries, so only that row is locked). */
  private async findVisibleForUpdate(interviews: Repository<Interview>, products: Repository<Product>, interviewID: string, principal: Principal): Promise<Interview> {
    const interview = await interviews.findOne({
      where: { interviewID },
      ...(this.dataSource.options.type !== 'better-sqlite3' ? { lock: { mode: 'pessimistic_write' as const } } : {}),
    });
    if (!interview) throw new InterviewNotFoundException(interviewID);
    const product = await products.findOneBy({ productID: interview.productID });
    if (!product || !canSee(principal, product)) throw new InterviewNotFoundException(interviewID);
    return interview;
  }
}
