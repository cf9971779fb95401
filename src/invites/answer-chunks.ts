import type { KeysetList } from '../common/keyset';
import type { ConversationTurn, TurnMeta, UserInfo } from './invite.entity';
import type { AnswerSourceRow } from './invites.repository';
import { AnswerSource, ExportRow, QuestionsIn, answersOf } from './answer-rows';

/**
 * Invites per query when their answers are read (exports, getAnswers, reports): each carries its
 * transcript. What a page holds is alive at the young generation's collections and so promoted; 50
 * rather than 200 halved a 100,000-answer export's RSS growth after the first (17 → 9 MB) for 10% more
 * time (1.22 → 1.34 s). Parsed in one go, such a page also stays around a millisecond of the thread.
 */
export const ANSWER_SOURCES_PER_READ = 50;

function sourceOf(r: AnswerSourceRow): AnswerSource {
  const conversation = JSON.parse(r.conversation) as ConversationTurn[];
  return {
    linkID: r.linkID,
    createdAt: r.createdAt,
    status: r.status,
    startedOn: r.startedOn,
    completedOn: r.completedOn,
    language: r.language,
    userInfo: r.userInfo === null ? null : (JSON.parse(r.userInfo) as UserInfo),
    conversation,
    turnMeta: r.turnMeta === null ? [] : (JSON.parse(r.turnMeta) as TurnMeta[]),
  };
}

/** Where a read of answers starts: inside an invite (from a turn on), or at the first. */
export interface AnswersStart {
  cursor: string;
  linkID: string;
  fromTurn: number;
}

/** A page of invites as the database gives them, parsed: the invites, and their answers from `start` on. */
export function chunkOf(
  page: readonly AnswerSourceRow[],
  questions: readonly string[],
  options: { start?: AnswersStart; questionIndex?: number; questionsIn?: QuestionsIn } = {},
): { rows: ExportRow[]; sources: AnswerSource[] } {
  const sources = page.map(sourceOf);
  const rows: ExportRow[] = [];
  for (const source of sources) {
    const from = options.start && source.linkID === options.start.linkID ? options.start.fromTurn : 0;
    for (const row of answersOf(source, questions, from, options.questionsIn)) {
      if (options.questionIndex === undefined || row.questionIndex === options.questionIndex) rows.push(row);
    }
  }
  return { rows, sources };
}

/**
 * An interview's answers, read from its invites' transcripts a batch of invites at a time, in the
 * lists' order (invite creation, then linkID) and transcript order within an invite. A batch of
 * invites yields its answers as one chunk: memory holds a batch, whatever the interview's size.
 */
export async function* answerChunks(
  list: KeysetList<AnswerSourceRow>,
  questions: readonly string[],
  options: { start?: AnswersStart; questionIndex?: number; questionsIn?: QuestionsIn } = {},
): AsyncGenerator<{ rows: ExportRow[]; sources: AnswerSource[] }> {
  for await (const rows of list.pages(ANSWER_SOURCES_PER_READ, options.start?.cursor, options.start !== undefined)) yield chunkOf(rows, questions, options);
}

