/**
 * The insights-at-scale study: STUDY_INVITES completed interviews of STUDY_QUESTIONS questions (100,000
 * answers), as the room would have left them (answers from the offline analysis's synthetic generator:
 * topical, varied lengths, some in other languages). The dataset seeds it into the database; the
 * insights sections measure it (insights.ts through the service, insights-quality.ts through the worker).
 */
import type { Pool } from 'mysql2/promise';
import { sqlDate } from '../src/database/column-types';
import { newUrlSecrets } from '../src/common/ids';
import { answerSentiment } from '../src/profiles/sentiment';
import type { TurnMeta } from '../src/invites/invite.entity';
import type { AnalysisAnswer } from '../src/reports/analysis/analysis.types';
import { syntheticAnswers } from '../src/reports/analysis/synthetic-answers';
import { inTransaction } from './baseline/transaction';

export const STUDY_INVITES = 10_000;
export const STUDY_QUESTIONS = 10;
export const STUDY_ANSWERS = STUDY_INVITES * STUDY_QUESTIONS;

/** The study's guidelines: ten questions (and a note, not asked). */
export function studyGuidelines(): string {
  const topics = ['pricing', 'speed', 'support', 'setup', 'reports', 'the mobile app', 'exports', 'onboarding', 'your team', 'what to change'];
  return ['Study notes: the spring cohort.', ...topics.map((topic, i) => `${i + 1}. What do you think about ${topic}?`)].join('\n');
}

const NOTHING_ELSE_SENTIMENT = answerSentiment('No, that is all.', 'en');
/** When the study's interviews began: the first 30 days ago, one a minute. */
const STUDY_BEGAN = Date.now() - 30 * 86_400_000;

/** Interview k of the study as the room leaves it: its transcript and per-turn data, when it began and ended. */
export function studyTranscript(k: number, answers: readonly AnalysisAnswer[], questions: readonly string[]): { conversation: { role: string; content: string }[]; meta: TurnMeta[]; began: number; ended: number } {
  const began = STUDY_BEGAN + k * 60_000;
  const conversation: { role: string; content: string }[] = [{ role: 'system', content: `Consent given ${new Date(began).toISOString()}: recorded.` }];
  const meta: TurnMeta[] = [{ at: new Date(began).toISOString(), questionIndex: null }];
  let at = began;
  // As the room stores them: an answer's sentiment is scored once, when it is stored.
  const turn = (role: string, content: string, questionIndex: number | null, sentiment?: number | null) => {
    conversation.push({ role, content });
    meta.push(sentiment === undefined ? { at: new Date(at).toISOString(), questionIndex } : { at: new Date(at).toISOString(), questionIndex, sentiment });
  };
  for (let q = 0; q < STUDY_QUESTIONS; q++) {
    turn('interviewer', q === 0 ? `Hello, and thank you for taking the time. ${questions[q]}` : questions[q], q);
    at += 20_000 + (k % 7) * 5_000;
    const answer = answers[k * STUDY_QUESTIONS + q];
    turn('interviewee', answer.answer, null, answer.sentiment);
  }
  turn('interviewer', 'Is there anything else you would like to tell us?', null);
  turn('interviewee', 'No, that is all.', null, NOTHING_ELSE_SENTIMENT);
  turn('interviewer', 'Thank you, that is all our questions. Goodbye!', null);
  return { conversation, meta, began, ended: at };
}

/** The study's invites, completed, with transcripts and per-turn data as the room writes them. */
export async function seedStudy(pool: Pool, study: { interviewID: string; productID: string; orgID: string }): Promise<void> {
  const answers = syntheticAnswers(STUDY_ANSWERS, { questions: STUDY_QUESTIONS, seed: 7 });
  const questions = studyGuidelines().split('\n').slice(1).map((line) => line.replace(/^\d+\. /, ''));
  const expires = sqlDate(new Date(Date.now() + 365 * 86_400_000));
  const links = newUrlSecrets(STUDY_INVITES);
  const BATCH = 250;
  for (let start = 0; start < STUDY_INVITES; start += BATCH) {
    const params: unknown[] = [];
    const count = Math.min(BATCH, STUDY_INVITES - start);
    for (let k = start; k < start + count; k++) {
      const { conversation, meta, began, ended } = studyTranscript(k, answers, questions);
      const user = JSON.stringify({ email: `person${k}@example.com`, name: `Person ${k}`, occupation: 'Analyst' });
      params.push(links[k], study.interviewID, study.productID, study.orgID, user, sqlDate(new Date(began)), sqlDate(new Date(ended)), sqlDate(new Date(ended)), expires);
      params.push(JSON.stringify(conversation), JSON.stringify(meta), STUDY_QUESTIONS + 1, sqlDate(new Date(began)));
    }
    await inTransaction(pool, (conn) =>
      conn.query(
        'INSERT INTO invites (link_id, interview_id, product_id, org_id, user_info, status, created_at, updated_at, completed_on, expires_on, conversation, turn_meta, answer_count, started_on, language) VALUES ' +
          new Array<string>(count).fill("(?, ?, ?, ?, ?, 'completed', ?, ?, ?, ?, ?, ?, ?, ?, 'en')").join(', '),
        params,
      ),
    );
  }
}
