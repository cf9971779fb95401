import type { AnswerSourceRow } from '../invites/invites.repository';
import { SENTIMENT_METHOD } from './analysis/sentiment-method';
import { analyzeOffline } from './analysis/offline-analysis';
import { Yielder } from './analysis/yielder';
import { ReportAnswers } from './report-answers';

/** An invite with one answer to question 0, its score stored as given (method absent: stored before methods were named). */
function invite(linkID: string, answer: string, stored: { sentiment?: number | null; sentimentMethod?: string }): AnswerSourceRow {
  const at = '2026-01-01T10:00:00.000Z';
  return {
    linkID,
    createdAt: new Date(at),
    status: 'completed',
    startedOn: new Date(at),
    completedOn: new Date(at),
    language: 'en',
    userInfo: null,
    conversation: JSON.stringify([{ role: 'interviewer', content: 'What do you think?' }, { role: 'interviewee', content: answer }]),
    turnMeta: JSON.stringify([{ at, questionIndex: 0 }, { at, questionIndex: null, ...stored }]),
  };
}

describe(ReportAnswers.name, () => {
  const questions = [{ questionIndex: 0, question: 'What do you think?' }];
  const insightsOf = async (rows: AnswerSourceRow[]) => {
    const gathered = new ReportAnswers(['What do you think?'], Date.parse('2027-01-01'));
    await gathered.add(rows, new Yielder());
    return gathered.insights(await analyzeOffline({ questions, answers: gathered.answers }));
  };

  it('reads the stored scores and says how many an earlier method made', async () => {
    const result = await insightsOf([
      invite('a', 'The delivery was late again.', { sentiment: 0.84 }),
      invite('b', 'Great recipes, I love them.', { sentiment: 0.8, sentimentMethod: 'vader-rules+lexicons/v1' }),
      invite('c', 'It is fine.', { sentiment: 0.2, sentimentMethod: SENTIMENT_METHOD }),
      invite('d', 'No opinion.', {}),
    ]);
    // Stored scores are kept as they are (0.84 for a complaint, from before), the unscored one is scored now.
    expect(result.sentiment).toMatchObject({ scored: 4, positive: 3 });
    expect(result.notes).toEqual([`2 answers were scored for sentiment when stored, by an earlier method than ${SENTIMENT_METHOD}: their scores are that method's.`]);
  });

  it('adds no note when every stored score is the current method\'s', async () => {
    const result = await insightsOf([invite('a', 'It is fine.', { sentiment: 0.2, sentimentMethod: SENTIMENT_METHOD }), invite('b', 'No opinion.', {})]);
    expect(result.notes).toEqual([]);
  });

  it('matches codes to their answers by invite and turn, in the analysis\' order or any other, and checks quotes against them', async () => {
    const gathered = new ReportAnswers(['What do you think?'], Date.parse('2027-01-01'));
    await gathered.add([invite('a', 'The delivery was late again and again.', {}), invite('b', 'Great recipes, I love them a lot.', {})], new Yielder());
    const analysis = await analyzeOffline({ questions, answers: gathered.answers });
    const quote = { linkID: 'b', turnIndex: 1, text: 'Great recipes, I love them' };
    const forged = { linkID: 'a', turnIndex: 1, text: 'Great recipes, I love them' };
    analysis.questions[0].quotes = [quote, forged];
    for (const codes of [analysis.codes, [...analysis.codes].reverse()]) {
      const result = gathered.insights({ ...analysis, codes });
      expect(result.codes.map((c) => [c.linkID, c.answer])).toEqual(codes.map((c) => [c.linkID, c.linkID === 'a' ? 'The delivery was late again and again.' : 'Great recipes, I love them a lot.']));
      // A quote stays only where it is the words of the turn it cites.
      expect(result.questions[0].quotes).toEqual([quote]);
      expect(result.droppedQuotes).toBe(1);
    }
  });
});
