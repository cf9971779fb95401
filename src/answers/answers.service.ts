import { BadRequestException, Injectable, StreamableFile } from '@nestjs/common';
import { Readable } from 'node:stream';
import type { Principal } from '../auth/principal';
import { ListAnswer, encodeCursor } from '../common/keyset';
import { LIST_MAX_ROWS } from '../common/limits';
import { InterviewsService } from '../interviews/interviews.service';
import { InvitesRepository } from '../invites/invites.repository';
import { AnswerRow, ExportRow, QuestionsIn, answerRowOf } from '../invites/answer-rows';
import { askedQuestions } from '../interviewers/default-interviewer';
import type { Interview } from '../interviews/interview.entity';
import { AnswersStart, answerChunks } from '../invites/answer-chunks';
import { decodeAnswerCursor, encodeAnswerCursor } from './answer-cursor';
import { CODED_EXPORT_COLUMNS, CodedExportRow, EXPORT_COLUMNS, exportBody, exportFileName } from './answers-export';
import { ReportsService } from '../reports/reports.service';
import { ExportAnswersQueryDto, GetAnswersQueryDto } from './dto/answer-queries.dto';

/** The questions as asked in each language, worked out once per language a read meets. */
function questionsIn(interview: Interview, productName: string): QuestionsIn {
  const known = new Map<string, readonly string[]>();
  return (language) => {
    let texts = known.get(language);
    if (!texts) known.set(language, (texts = askedQuestions(interview, productName, language)));
    return texts;
  };
}

@Injectable()
export class AnswersService {
  constructor(
    private readonly interviews: InterviewsService,
    private readonly invites: InvitesRepository,
    private readonly reports: ReportsService,
  ) {}

  /**
   * getAnswers. With `limit`: that many answers and the next page's cursor. Without: every answer,
   * written as it is read when more than a batch of invites holds them, at most LIST_MAX_ROWS (400
   * beyond, asking to page: counted from the invites' answer counts before the first byte).
   */
  async list(query: GetAnswersQueryDto, principal: Principal): Promise<ListAnswer<AnswerRow>> {
    const { interview, productName, questions } = await this.interviews.questionsFor(principal, query.interviewID);
    const list = this.invites.answerSources(interview.interviewID);
    const texts = questions.map((q) => q.question);
    const start = query.cursor === undefined ? undefined : this.startOf(query.cursor);
    const chunks = answerChunks(list, texts, { start, questionIndex: query.questionIndex, questionsIn: questionsIn(interview, productName) });

    if (query.limit !== undefined) {
      const items: AnswerRow[] = [];
      let lastCreatedAt: Date | undefined;
      for await (const { rows, sources } of chunks) {
        const createdAt = new Map(sources.map((source) => [source.linkID, source.createdAt]));
        for (const row of rows) {
          if (items.length === query.limit) {
            // One more answer exists: the page ends, and the next starts after its last answer.
            await chunks.return(undefined);
            return { items, next: encodeAnswerCursor(lastCreatedAt!, items[items.length - 1]) };
          }
          items.push(answerRowOf(row));
          lastCreatedAt = createdAt.get(row.linkID);
        }
      }
      return { items };
    }

    const first = await chunks.next();
    const firstRows = first.done ? [] : first.value.rows.map(answerRowOf);
    const peek = first.done ? first : await chunks.next();
    if (peek.done) return { items: firstRows };
    if ((await this.invites.tally(interview.interviewID)).answers > LIST_MAX_ROWS) {
      await chunks.return(undefined);
      throw new BadRequestException(`this interview has more than ${LIST_MAX_ROWS} answers: page them with limit and cursor`);
    }
    const second = peek.value.rows.map(answerRowOf);
    async function* body(): AsyncGenerator<string> {
      let sent = 0;
      const write = (rows: AnswerRow[]) => {
        const text = rows.map((row, i) => `${sent + i === 0 ? '' : ','}${JSON.stringify(row)}`).join('');
        sent += rows.length;
        return text;
      };
      yield `{"result":[${write(firstRows)}`;
      yield write(second);
      for await (const { rows } of chunks) if (rows.length > 0) yield write(rows.map(answerRowOf));
      yield ']}';
    }
    return new StreamableFile(Readable.from(body()), { type: 'application/json; charset=utf-8' });
  }

  /**
   * exportAnswers: every answer with its invite, as CSV or JSON Lines, written as it is read. With a
   * report, each chunk's answers are looked up in its codes (by their invites) as they are written.
   */
  async export(query: ExportAnswersQueryDto, principal: Principal): Promise<StreamableFile> {
    const { interview, productName, questions } = await this.interviews.questionsFor(principal, query.interviewID);
    const themesOf = query.reportID === undefined ? undefined : await this.reports.themesFor(query.reportID, interview.interviewID, principal);
    const format = query.format ?? 'csv';
    const chunks = answerChunks(
      this.invites.answerSources(interview.interviewID),
      questions.map((q) => q.question),
      { questionsIn: questionsIn(interview, productName) },
    );
    async function* rows(): AsyncGenerator<ExportRow[] | CodedExportRow[]> {
      for await (const chunk of chunks) {
        if (chunk.rows.length === 0) continue;
        if (!themesOf) {
          yield chunk.rows;
          continue;
        }
        const themes = await themesOf(chunk.rows);
        yield chunk.rows.map((row, i) => ({ ...row, themes: themes[i] }));
      }
    }
    return new StreamableFile(exportBody(rows(), format, themesOf ? CODED_EXPORT_COLUMNS : EXPORT_COLUMNS), {
      type: format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8',
      disposition: `attachment; filename="${exportFileName(interview.interviewID, format)}"`,
    });
  }

  private startOf(cursor: string): AnswersStart {
    const c = decodeAnswerCursor(cursor);
    return { cursor: encodeCursor(c.createdAt, c.linkID), linkID: c.linkID, fromTurn: c.turnIndex + 1 };
  }

}
