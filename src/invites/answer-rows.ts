import { countWords } from '../interviewers/default-interviewer';
import type { ConversationTurn, TurnMeta, UserInfo } from './invite.entity';
import type { InviteStatus } from '../domain/invite-status';
import { answerSentiment } from '../profiles/sentiment';

/** An invite as the answers are read from it. */
export interface AnswerSource {
  linkID: string;
  createdAt: Date;
  status: InviteStatus;
  startedOn: Date | null;
  completedOn: Date | null;
  language: string | null;
  userInfo: UserInfo | null;
  conversation: ConversationTurn[];
  turnMeta: TurnMeta[];
}

/** One interviewee answer, as getAnswers lists it. */
export interface AnswerRow {
  linkID: string;
  questionIndex: number | null;
  question: string | null;
  turnIndex: number;
  answer: string;
  followUp: boolean;
  at: string | null;
  words: number;
  sentiment: number | null;
  language: string;
  /**
   * The question as the interviewee was asked it: in the invite's language when the interview has a
   * translation into it, else the base text; null with questionIndex null.
   */
  asked: string | null;
}

/** An answer with what the export adds from its invite. */
export interface ExportRow extends AnswerRow {
  status: InviteStatus;
  startedOn: string | null;
  completedOn: string | null;
  name: string | null;
  email: string | null;
  occupation: string | null;
}

/** The language of interviews from before languages were recorded: the room spoke English. */
const RECORDED_BEFORE = 'en';

/** The interview's questions as an invite held in a language is asked them (askedQuestions); absent: the base questions. */
export type QuestionsIn = (language: string) => readonly string[];

/**
 * The interviewee's answers in one invite, in transcript order. An answer answers the interviewer turn
 * before it: its question index (null for "anything else?", greetings and turns an agent did not
 * attribute), and it is a follow-up when that turn followed up the same question as the interviewer
 * turn before it (the built-in agent's probe; an LLM agent's follow-up). `questions` are the
 * interview's (interviewQuestions): an index past them (guidelines edited since) has no question text.
 */
export function answersOf(source: AnswerSource, questions: readonly string[], from = 0, questionsIn?: QuestionsIn): ExportRow[] {
  const rows: ExportRow[] = [];
  const language = source.language ?? RECORDED_BEFORE;
  const askedTexts = questionsIn ? questionsIn(language) : questions;
  let asked: number | null = null;
  let followUp = false;
  for (let turnIndex = 0; turnIndex < source.conversation.length; turnIndex++) {
    const turn = source.conversation[turnIndex];
    const meta = source.turnMeta[turnIndex];
    if (turn.role === 'interviewer') {
      const index = meta?.questionIndex ?? null;
      followUp = index !== null && index === asked;
      asked = index;
    } else if (turn.role === 'interviewee' && turnIndex >= from) {
      rows.push({
        linkID: source.linkID,
        questionIndex: asked,
        question: asked === null ? null : (questions[asked] ?? null),
        turnIndex,
        answer: turn.content,
        followUp,
        at: meta?.at ?? null,
        words: countWords(turn.content),
        // A score stored with the answer is read as it is, whatever method made it (TurnMeta.sentimentMethod):
        // answers stored before the current SENTIMENT_METHOD keep their earlier score (reports say how many).
        sentiment: meta?.sentiment !== undefined ? meta.sentiment : answerSentiment(turn.content, language),
        language,
        asked: asked === null ? null : (askedTexts[asked] ?? null),
        status: source.status,
        startedOn: source.startedOn?.toISOString() ?? null,
        completedOn: source.completedOn?.toISOString() ?? null,
        name: source.userInfo?.name ?? null,
        email: source.userInfo?.email ?? null,
        occupation: source.userInfo?.occupation ?? null,
      });
    }
  }
  return rows;
}

/** The fields getAnswers shows (the export's rows without the invite's). */
export function answerRowOf(row: ExportRow): AnswerRow {
  return {
    linkID: row.linkID,
    questionIndex: row.questionIndex,
    question: row.question,
    turnIndex: row.turnIndex,
    answer: row.answer,
    followUp: row.followUp,
    at: row.at,
    words: row.words,
    sentiment: row.sentiment,
    language: row.language,
    asked: row.asked,
  };
}
