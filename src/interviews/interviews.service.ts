import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, Repository } from 'typeorm';
import { AccessService } from '../access/access.service';
import type { Principal } from '../auth/principal';
import { uuidv7 } from '../common/ids';
import { Page, SqlWhere, pagedSql, toPage } from '../common/keyset';
import { AppConfig } from '../config/app-config';
import { rawDate } from '../database/column-types';
import { InterviewersService } from '../interviewers/interviewers.service';
import { Invite } from '../invites/invite.entity';
import { CreateInterviewDto } from './dto/create-interview.dto';
import { InterviewDto } from './dto/interview.dto';
import { ListInterviewsQueryDto } from './dto/interview-queries.dto';
import { UpdateInterviewDto } from './dto/update-interview.dto';
import { Interview } from './interview.entity';
import { InterviewHasInvitesException } from './interviews.errors';
import { INTERVIEW_KEYS, INTERVIEW_LIST, InterviewRow } from './interviews.sql';

function toDto(i: InterviewRow): InterviewDto {
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
    private readonly access: AccessService,
    private readonly config: AppConfig,
    private readonly interviewers: InterviewersService,
  ) {}

  async create(dto: CreateInterviewDto, principal: Principal): Promise<{ interviewID: string }> {
    await this.access.product(principal, dto.productID);
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
    if (dto.interviewer) this.interviewers.assertKnown(dto.interviewer);
    if (dto.interviewer !== undefined) changes.interviewer = dto.interviewer || this.config.defaultInterviewer;

    // Read, check and write in one transaction, the interview row locked, so that a concurrent
    // createInvites cannot slip invites in between the "no invites yet" check and the move.
    await this.dataSource.transaction(async (db) => {
      const { interview } = await this.access.interview(principal, dto.interviewID, { db, lock: true });
      if (dto.productID !== undefined && dto.productID !== interview.productID) {
        await this.access.product(principal, dto.productID, db);
        if (await db.getRepository(Invite).exists({ where: { interviewID: interview.interviewID } })) {
          throw new InterviewHasInvitesException(interview.interviewID);
        }
        changes.productID = dto.productID;
      }
      if (Object.keys(changes).length > 0) {
        await db.getRepository(Interview).update({ interviewID: interview.interviewID }, { ...changes, updatedAt: new Date() });
      }
    });
    return { interviewID: dto.interviewID, status: 'updated' };
  }

  async getOne(interviewID: string, principal: Principal): Promise<InterviewDto> {
    return toDto((await this.access.interview(principal, interviewID)).interview);
  }

  async list(query: ListInterviewsQueryDto, principal: Principal): Promise<Page<InterviewDto>> {
    await this.access.product(principal, query.productID);
    const where = new SqlWhere().and('i.product_id = ?', query.productID);
    const { sql, params } = pagedSql(INTERVIEW_LIST, where, INTERVIEW_KEYS, query);
    const rows: (InterviewRow & { createdAt: Date | string })[] = await this.dataSource.query(sql, params);
    return toPage(rows, query, (r) => [rawDate(r.createdAt), r.interviewID], toDto);
  }
}
