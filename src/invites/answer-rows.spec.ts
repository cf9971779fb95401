import { AnswerSource, answersOf } from './answer-rows';

const QUESTIONS = ['How did you find us?', 'What would you change?'];

function source(turns: [role: string, content: string, questionIndex?: number | null][], overrides: Partial<AnswerSource> = {}): AnswerSource {
  return {
    linkID: 'link-1',
    createdAt: new Date('2026-11-01T00:00:00.000Z'),
    status: 'completed',
    startedOn: new Date('2026-11-01T10:00:00.000Z'),
    completedOn: new Date('2026-11-01T10:20:00.000Z'),
    language: 'en',
    userInfo: { name: 'Ada Lovelace', email: 'ada@example.com', occupation: null },
    conversation: turns.map(([role, content]) => ({ role: role as 'interviewer', content })),
    turnMeta: turns.map(([, , questionIndex], i) => ({ at: `2026-11-01T10:0${i}:00.000Z`, questionIndex: questionIndex ?? null })),
    ...overrides,
  };
}

const brief = (rows: ReturnType<typeof answersOf>) => rows.map((r) => [r.turnIndex, r.questionIndex, r.question, r.followUp]);

describe(answersOf.name, () => {
  it('attributes each answer to the interviewer turn before it; a turn following up the same question makes a follow-up', () => {
    const rows = answersOf(
      source([
        ['system', 'Consent given …'],
        ['interviewer', 'Hello! How did you find us?', 0],
        ['interviewee', 'Friends.'],
        ['interviewer', 'Could you tell me more?', 0],
        ['interviewee', 'A friend at work showed it to me last year.'],
        ['interviewer', 'And what was the first thing you tried?', 0],
        ['interviewee', 'The import.'],
        ['interviewer', 'What would you change?', 1],
        ['interviewee', 'Faster search, please, it is slow.'],
        ['interviewer', 'Anything else?', null],
        ['interviewee', 'No.'],
      ]),
      QUESTIONS,
    );
    expect(brief(rows)).toEqual([
      [2, 0, 'How did you find us?', false],
      [4, 0, 'How did you find us?', true],
      [6, 0, 'How did you find us?', true],
      [8, 1, 'What would you change?', false],
      [10, null, null, false],
    ]);
    expect(rows[0]).toMatchObject({ answer: 'Friends.', words: 1, at: '2026-11-01T10:02:00.000Z', language: 'en', status: 'completed', name: 'Ada Lovelace' });
  });

  it('leaves what is not known unknown: transcripts stored before turn data was kept', () => {
    const rows = answersOf(
      source(
        [
          ['interviewer', 'Hello! How did you find us?'],
          ['interviewee', 'Friends told me about it at a conference.'],
        ],
        { turnMeta: [], language: null },
      ),
      QUESTIONS,
    );
    expect(rows).toEqual([expect.objectContaining({ questionIndex: null, question: null, followUp: false, at: null, language: 'en', sentiment: expect.any(Number) })]);
  });

  it('keeps an index past the questions (guidelines edited since) without a question text', () => {
    const rows = answersOf(source([['interviewer', 'Old question?', 5], ['interviewee', 'An answer to it.']]), QUESTIONS);
    expect(brief(rows)).toEqual([[1, 5, null, false]]);
  });

  it('scores answers in the interview\'s language, and not those of a language without a lexicon', () => {
    const rows = answersOf(source([['interviewer', '¿Qué cambiarías?', 1], ['interviewee', 'Nada, me encanta.']], { language: 'es' }), QUESTIONS);
    expect(rows[0].language).toBe('es');
    expect(rows[0].sentiment).toBeGreaterThan(0.05);
    const klingon = answersOf(source([['interviewer', 'Q', 1], ['interviewee', 'tlhIngan Hol vIjatlh']], { language: 'tlh' }), QUESTIONS);
    expect(klingon[0].sentiment).toBeNull();
  });

  it('reads the sentiment stored with an answer instead of scoring it again, and scores answers stored without one', () => {
    const stored = source([['interviewer', 'Q0', 0], ['interviewee', 'This is terrible and I hate it.']]);
    stored.turnMeta[1] = { at: null, questionIndex: null, sentiment: 0.5 };
    expect(answersOf(stored, QUESTIONS)[0].sentiment).toBe(0.5);
    const unscored = source([['interviewer', 'Q0', 0], ['interviewee', 'This is terrible and I hate it.']]);
    expect(answersOf(unscored, QUESTIONS)[0].sentiment).toBeLessThan(-0.5);
  });

  it('starts from a turn when asked (a page that resumes inside an invite)', () => {
    const rows = answersOf(
      source([
        ['interviewer', 'Q0', 0],
        ['interviewee', 'first answer here'],
        ['interviewer', 'Q1', 1],
        ['interviewee', 'second answer here'],
      ]),
      QUESTIONS,
      2,
    );
    expect(brief(rows)).toEqual([[3, 1, 'What would you change?', false]]);
  });

  it('carries the question as asked: in the invite\'s language when translated, the probed question for a probe\'s answer, null when unattributed', () => {
    const german = ['Wie haben Sie uns gefunden?', 'Was würden Sie ändern?'];
    const questionsIn = (language: string) => (language === 'de' ? german : QUESTIONS);
    const turns: [string, string, (number | null)?][] = [
      ['interviewer', 'Hallo! Wie haben Sie uns gefunden?', 0],
      ['interviewee', 'Freunde.'],
      ['interviewer', 'Können Sie mehr erzählen?', 0],
      ['interviewee', 'Eine Kollegin hat es mir im letzten Jahr gezeigt.'],
      ['interviewer', 'Noch etwas?', null],
      ['interviewee', 'Nein.'],
    ];
    const rows = answersOf(source(turns, { language: 'de' }), QUESTIONS, 0, questionsIn);
    expect(rows.map((r) => [r.question, r.asked, r.followUp])).toEqual([
      ['How did you find us?', 'Wie haben Sie uns gefunden?', false],
      ['How did you find us?', 'Wie haben Sie uns gefunden?', true],
      [null, null, false],
    ]);
    // Without per-language questions (or in a language without a translation) asked is the base text.
    expect(answersOf(source(turns), QUESTIONS)[0].asked).toBe('How did you find us?');
    expect(answersOf(source(turns, { language: 'fr' }), QUESTIONS, 0, questionsIn)[0].asked).toBe('How did you find us?');
  });
});
