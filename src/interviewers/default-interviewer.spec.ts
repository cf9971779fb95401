import { syntheticAnswers } from '../reports/analysis/synthetic-answers';
import { DefaultInterviewer, countWords, countWordsPerCharacter, generalQuestions, interviewQuestions, notesOf, questionsOf } from './default-interviewer';
import { AgentTurn, InterviewBrief, Turn } from './interviewer-agent';

/** Guidelines as research teams write them, with the questions the agent must find in them. */
const GUIDELINES: { name: string; text: string | null; questions: string[] }[] = [
  {
    name: 'ASCII and typographic bullets',
    text: '- How did you first hear about Acme Notes?\n* What did you try first?\n• What almost stopped you?\n– What would you change?',
    questions: ['How did you first hear about Acme Notes?', 'What did you try first?', 'What almost stopped you?', 'What would you change?'],
  },
  {
    name: 'every kind of numbering',
    text: '1. Where do you work?\n2) What is your role?\n(3) Who else uses it?\na) When do you open it?\nQ5: How often?\nQ 6. Why then?\n7 - What is missing?\n①What did it replace?\niv) Would you recommend it?',
    questions: [
      'Where do you work?',
      'What is your role?',
      'Who else uses it?',
      'When do you open it?',
      'How often?',
      'Why then?',
      'What is missing?',
      'What did it replace?',
      'Would you recommend it?',
    ],
  },
  {
    name: 'question lines inside a numbered list of notes',
    text: [
      'Research goal: understand why trial users churn in their first week.',
      'Note for the interviewer: do not mention the upcoming pricing change.',
      '1. Context: the participant signed up in the last 30 days.',
      '2. How did you first hear about Acme Notes?',
      '3. Probe for competitors they evaluated.',
      '4. What almost stopped you from signing up?',
      '5. Listen for words like "slow", "confusing", "expensive".',
    ].join('\n'),
    questions: ['How did you first hear about Acme Notes?', 'What almost stopped you from signing up?'],
  },
  {
    name: 'Windows line endings, trailing spaces and tabs, blank lines, markdown',
    text: '## Warm-up\r\n\r\n- [ ] What do you do for a living?   \r\n   - 1) How does your week look?\t\r\n**Notes**: keep it short.\r\n### What tools do you use today?\r\n',
    questions: ['What do you do for a living?', 'How does your week look?', 'What tools do you use today?'],
  },
  {
    name: 'Spanish with ¿…?',
    text: 'Objetivo: entender el uso diario.\n- ¿Cómo conociste el producto?\n- ¿Qué es lo que más valoras de él?\nNota: no hablar del precio.',
    questions: ['¿Cómo conociste el producto?', '¿Qué es lo que más valoras de él?'],
  },
  {
    name: 'German',
    text: 'Ziel: Alltagsnutzung verstehen.\n1. Wie nutzen Sie das Produkt im Alltag?\n2. Was würden Sie ändern?\nHinweis: nicht nach dem Preis fragen.',
    questions: ['Wie nutzen Sie das Produkt im Alltag?', 'Was würden Sie ändern?'],
  },
  {
    name: 'Japanese with full-width ？ and numbering',
    text: '目的：日常の使い方を理解する。\n・このアプリを知ったきっかけは何ですか？\n１．毎日どのように使っていますか？\n（メモ：価格の話はしない）',
    questions: ['このアプリを知ったきっかけは何ですか？', '毎日どのように使っていますか？'],
  },
  {
    name: 'Arabic with ؟ and Arabic-Indic numbering',
    text: 'الهدف: فهم الاستخدام اليومي.\n١. كيف تستخدم التطبيق كل يوم؟\n- ما الذي يعجبك فيه أكثر؟\nملاحظة: لا تذكر الأسعار.',
    questions: ['كيف تستخدم التطبيق كل يوم؟', 'ما الذي يعجبك فيه أكثر؟'],
  },
  {
    name: 'text that only looks like a marker',
    text: '-5 °C outside: does the app still sync?\nA.I. features: are they useful?\n1.5 million users: is that many?',
    questions: ['-5 °C outside: does the app still sync?', 'A.I. features: are they useful?', '1.5 million users: is that many?'],
  },
  { name: 'notes only', text: 'Focus on onboarding.\nDo not mention pricing.\n- Listen for frustration', questions: [] },
  { name: 'question marks without a question', text: '- ?\n？\n1. ?', questions: [] },
  { name: 'empty guidelines', text: '', questions: [] },
  { name: 'no guidelines', text: null, questions: [] },
];

const brief = (overrides: Partial<InterviewBrief> = {}): InterviewBrief => ({
  productName: 'Acme Notes',
  productDesc: 'A note-taking app for teams.',
  interviewName: 'Onboarding friction, Q4',
  language: 'en',
  guidelines: null,
  intervieweeName: 'Ana María López',
  ...overrides,
});

const LONG_ANSWER = 'I use it every single day to plan the work of my team.';
const SHORT_ANSWER = 'Every day.';

/** Plays an interview to its end: the agent's turns, answered by `answer`, until done (or 100 turns). */
async function play(sut: DefaultInterviewer, b: InterviewBrief, answer: (turn: number) => string): Promise<Turn[]> {
  const transcript: Turn[] = [{ role: 'system', content: 'Consent given 2026-11-22T10:00:00.000Z: the interview is recorded.' }];
  for (let i = 0; i < 100; i++) {
    const turn: AgentTurn = await sut.next(b, transcript);
    transcript.push({ role: 'interviewer', content: turn.message });
    if (turn.done) return transcript;
    transcript.push({ role: 'interviewee', content: answer(i) });
  }
  throw new Error('the interview did not end');
}

const interviewerTurns = (transcript: Turn[]) => transcript.filter((t) => t.role === 'interviewer').map((t) => t.content);

describe(questionsOf.name, () => {
  it.each(GUIDELINES.map((g) => [g.name, g] as const))('finds the questions in %s', (_name, g) => {
    expect(questionsOf(g.text)).toEqual(g.questions);
  });

  // The guidelines are read once and kept by their text: what a caller does to its list stays its own.
  it('answers each call with a list of its own, and reads edited guidelines anew', () => {
    const text = '1. Why?\nA note.\n2. How often?';
    const first = questionsOf(text);
    first.push('Injected?');
    first[0] = 'Changed?';
    expect(questionsOf(text)).toEqual(['Why?', 'How often?']);
    expect(questionsOf(`${text}\n3. What else?`)).toEqual(['Why?', 'How often?', 'What else?']);
    const notes = notesOf(text);
    notes.pop();
    expect(notesOf(text)).toEqual(['A note.']);
  });
});

describe(countWords.name, () => {
  it.each<[string, number]>([
    ['Yes', 1],
    ['I use it every day for my notes', 8],
    ['  spaced   out\ttext\n', 3],
    ['Sí, lo uso todos los días', 6],
    ['Ich benutze es jeden Tag', 5],
    ['أستخدمه كل يوم في العمل', 5],
    ['Да, каждый день', 3],
    ['👍 !!! — ...', 0],
    ['', 0],
    ['はい', 1],
    ['毎日使っています', 4],
    ['我每天都用它来做笔记，因为很方便', 8],
    ['iPhoneで使う', 3],
    ['ใช้ทุกวัน', 2],
  ])('counts %p as %i words', (text, words) => {
    expect(countWords(text)).toBe(words);
    expect(countWordsPerCharacter(text)).toBe(words);
  });

  // Text of spaced scripts only takes a faster path: it must count as the character-by-character count does.
  it.each([
    'A colleague showed it to me during a planning meeting last spring, and I liked it.',
    "'-1 point: they said it was great — for teams! (and I believed them)",
    'Preço: 10€/mês — "barato", diz ela.\u00a0Então\u2003sim',
    'Zero\u200bwidth joins, tabs\tand\r\nline breaks, 3.5 stars, #1, e-mail@example.com',
    '... --- !!! 🙂🙂 ?',
    'Ελληνικά κείμενα, עברית טקסט, हिन्दी पाठ, 한국어 텍스트',
    '  leading and trailing  ',
  ])('counts %p as the per-character count does', (text) => {
    expect(countWords(text)).toBe(countWordsPerCharacter(text));
  });

  it('counts 5,000 synthetic answers in several languages as the per-character count does', () => {
    const texts = syntheticAnswers(5_000, { questions: 10, seed: 3 }).map((a) => a.answer);
    expect(texts.filter((t) => countWords(t) !== countWordsPerCharacter(t))).toEqual([]);
  });
});

describe(DefaultInterviewer.name, () => {
  const sut = new DefaultInterviewer();

  describe('the opening', () => {
    it('greets the interviewee by first name, names the product and asks the first question', async () => {
      await expect(sut.next(brief({ guidelines: '- How did you find us?\n- Why?' }), [])).resolves.toEqual({
        message: 'Hello Ana, and thank you for taking the time to talk with us about Acme Notes. How did you find us?',
        done: false,
        questionIndex: 0,
      });
    });

    it('uses a one-word name as it is', async () => {
      const turn = await sut.next(brief({ intervieweeName: '  Prince ' }), []);
      expect(turn.message).toMatch(/^Hello Prince, and thank you/);
    });

    it.each([null, '', '   '])('greets without a name when the name is %p', async (intervieweeName) => {
      const turn = await sut.next(brief({ intervieweeName }), []);
      expect(turn.message).toMatch(/^Hello, and thank you for taking the time to talk with us about Acme Notes\. /);
    });

    it('opens the same after the consent turn (system turns are not answers)', async () => {
      const consent: Turn = { role: 'system', content: 'Consent given 2026-11-22T10:00:00.000Z: recorded.' };
      await expect(sut.next(brief(), [consent])).resolves.toEqual(await sut.next(brief(), []));
    });
  });

  describe('without questions in the guidelines', () => {
    it.each([null, '', 'Focus on onboarding.\nDo not mention pricing.'])('asks the general set about the product (guidelines %p)', async (guidelines) => {
      const transcript = await play(sut, brief({ guidelines }), () => LONG_ANSWER);
      const asked = interviewerTurns(transcript);
      const general = generalQuestions('Acme Notes');
      expect(general.length).toBeGreaterThanOrEqual(4);
      expect(general.every((q) => q.includes('Acme Notes'))).toBe(true);
      expect(asked[0].endsWith(` ${general[0]}`)).toBe(true);
      expect(asked.slice(1, general.length)).toEqual(general.slice(1));
    });
  });

  describe('probes', () => {
    const b = brief({ guidelines: '1. What do you use it for?\n2. What would you change?' });

    it('probes an answer of fewer than 8 words once, then moves on whatever the answer to the probe', async () => {
      const transcript = await play(sut, b, () => SHORT_ANSWER);
      expect(interviewerTurns(transcript).slice(1)).toEqual([
        'Could you tell me a little more about that?',
        'What would you change?',
        'Could you give me an example?',
        'Is there anything else you would like to tell us about Acme Notes?',
        expect.stringMatching(/^Thank you, Ana/),
      ]);
    });

    it('does not probe an answer of 8 words or more', async () => {
      const transcript = await play(sut, b, () => 'I use it for all my team notes.');
      expect(countWords('I use it for all my team notes.')).toBe(8);
      expect(interviewerTurns(transcript).slice(1, 3)).toEqual(['What would you change?', 'Is there anything else you would like to tell us about Acme Notes?']);
    });

    it('probes a 7-word answer', async () => {
      const answer = 'I use it for all my notes.';
      expect(countWords(answer)).toBe(7);
      await expect(sut.next(b, [{ role: 'interviewer', content: '…' }, { role: 'interviewee', content: answer }])).resolves.toEqual({
        message: 'Could you tell me a little more about that?',
        done: false,
        questionIndex: 0,
      });
    });

    it('counts words of answers without spaces by their characters (Japanese)', async () => {
      const ask = (answer: string) => sut.next(b, [{ role: 'interviewer', content: '…' }, { role: 'interviewee', content: answer }]);
      await expect(ask('毎日使っています')).resolves.toEqual({ message: 'Could you tell me a little more about that?', done: false, questionIndex: 0 });
      await expect(ask('毎日、チームの会議のメモを取るために使っています。')).resolves.toEqual({ message: 'What would you change?', done: false, questionIndex: 1 });
    });

    it('does not probe the answer to "anything else?"', async () => {
      const transcript = await play(sut, b, (i) => (i < 2 ? LONG_ANSWER : 'No.'));
      expect(interviewerTurns(transcript).slice(-2)).toEqual([
        'Is there anything else you would like to tell us about Acme Notes?',
        'Thank you, Ana, that is all our questions. Your answers help the team behind Acme Notes. Goodbye!',
      ]);
    });
  });

  it('attributes every question and probe to its guideline question, and nothing else', async () => {
    const b = brief({ guidelines: '1. What do you use it for?\n2. What would you change?' });
    const transcript: Turn[] = [];
    const indexes: (number | null)[] = [];
    for (const answer of [SHORT_ANSWER, LONG_ANSWER, LONG_ANSWER, 'No.']) {
      const turn = await sut.next(b, transcript);
      indexes.push(turn.questionIndex);
      transcript.push({ role: 'interviewer', content: turn.message }, { role: 'interviewee', content: answer });
    }
    indexes.push((await sut.next(b, transcript)).questionIndex);
    // Question 0, its probe, question 1, "anything else?", the closing.
    expect(indexes).toEqual([0, 0, 1, null, null]);
  });

  describe('the end', () => {
    const b = brief({ guidelines: 'What do you use it for?' });
    const done: Turn[] = [
      { role: 'interviewer', content: 'Hello Ana… What do you use it for?' },
      { role: 'interviewee', content: LONG_ANSWER },
      { role: 'interviewer', content: 'Is there anything else you would like to tell us about Acme Notes?' },
      { role: 'interviewee', content: 'No, that is all.' },
    ];

    it('asks whether there is anything else after the last question', async () => {
      await expect(sut.next(b, done.slice(0, 2))).resolves.toEqual({ message: 'Is there anything else you would like to tell us about Acme Notes?', done: false, questionIndex: null });
    });

    it('thanks the interviewee and ends with done: true', async () => {
      await expect(sut.next(b, done)).resolves.toEqual({
        message: 'Thank you, Ana, that is all our questions. Your answers help the team behind Acme Notes. Goodbye!',
        done: true,
        questionIndex: null,
      });
    });

    it('thanks without a name when there is none, and says the same if asked again', async () => {
      const more = [...done, { role: 'interviewer', content: 'Thank you…' }, { role: 'interviewee', content: 'Bye!' }] as Turn[];
      await expect(sut.next(brief({ guidelines: b.guidelines, intervieweeName: null }), more)).resolves.toEqual({
        message: 'Thank you, that is all our questions. Your answers help the team behind Acme Notes. Goodbye!',
        done: true,
        questionIndex: null,
      });
    });
  });

  it('walks through a short interview turn by turn', async () => {
    const b = brief({ guidelines: 'Goal: learn about onboarding.\n- How did you hear about Acme Notes?\n- What was hard in the first week?\nDo not mention pricing.' });
    const answers = ['A friend.', 'A colleague recommended it when our team moved to remote work.', 'Nothing much.', 'Sharing notes with people outside the company.', 'No.'];
    const transcript = await play(sut, b, (i) => answers[i]);
    expect(transcript.slice(1)).toEqual([
      { role: 'interviewer', content: 'Hello Ana, and thank you for taking the time to talk with us about Acme Notes. How did you hear about Acme Notes?' },
      { role: 'interviewee', content: 'A friend.' },
      { role: 'interviewer', content: 'Could you tell me a little more about that?' },
      { role: 'interviewee', content: 'A colleague recommended it when our team moved to remote work.' },
      { role: 'interviewer', content: 'What was hard in the first week?' },
      { role: 'interviewee', content: 'Nothing much.' },
      { role: 'interviewer', content: 'Could you give me an example?' },
      { role: 'interviewee', content: 'Sharing notes with people outside the company.' },
      { role: 'interviewer', content: 'Is there anything else you would like to tell us about Acme Notes?' },
      { role: 'interviewee', content: 'No.' },
      { role: 'interviewer', content: 'Thank you, Ana, that is all our questions. Your answers help the team behind Acme Notes. Goodbye!' },
    ]);
  });

  it('derives each turn from the transcript alone: a fresh agent continues any interview', async () => {
    const b = brief({ guidelines: '1. A?\n2. B?\n3. C?' });
    const transcript = await play(sut, b, (i) => (i % 2 ? SHORT_ANSWER : LONG_ANSWER));
    for (let end = 1; end < transcript.length; end++) {
      if (transcript[end].role !== 'interviewer') continue;
      const fresh = new DefaultInterviewer();
      const turn = await fresh.next(b, transcript.slice(0, end));
      expect(turn.message).toBe(transcript[end].content);
    }
  });

  it.each(GUIDELINES.map((g) => [g.name, g] as const))('never shows a note of %s, with short or long answers', async (_name, g) => {
    const notes = (g.text ?? '')
      .split(/\r?\n/)
      .map((line) => line.trim())
      .filter((line) => line !== '' && !/[?？؟]$/.test(line));
    for (const answer of [SHORT_ANSWER, LONG_ANSWER]) {
      const said = interviewerTurns(await play(sut, brief({ guidelines: g.text }), () => answer)).join('\n');
      expect(notes.filter((note) => said.includes(note) || said.includes(note.replace(/^[\d.)\-•*–#>\s（]+/, '')))).toEqual([]);
      for (const question of g.questions) expect(said).toContain(question);
    }
  });

  it('leaves the profile details empty', async () => {
    await expect(sut.summarize()).resolves.toBeNull();
  });
});

describe('the built-in agent in other languages', () => {
  const sut = new DefaultInterviewer();
  const inLanguage = (language: string, overrides: Partial<InterviewBrief> = {}) => brief({ language, intervieweeName: 'Ana María López', ...overrides });
  const after = (answers: string[]): Turn[] => answers.flatMap((content) => [{ role: 'interviewer', content: '…' }, { role: 'interviewee', content }]);

  it('greets, asks its general questions, probes, asks for anything else and closes in the language of the interview', async () => {
    const es = inLanguage('es');
    await expect(sut.next(es, [])).resolves.toMatchObject({ message: 'Hola, Ana, y gracias por dedicar un momento a hablar con nosotros sobre Acme Notes. ¿Cómo conociste Acme Notes y qué te llevó a probarlo?' });
    await expect(sut.next(es, after(['Poco.']))).resolves.toMatchObject({ message: '¿Podrías contarme un poco más sobre eso?', questionIndex: 0 });
    const general = await sut.next(es, after(['Poco.', 'Me lo recomendó una compañera de trabajo hace ya unos meses.']));
    expect(general.message).toBe('¿Para qué usas principalmente Acme Notes?');
  });

  it('asks guideline questions as written, whatever the language, and its own phrases in the language', async () => {
    const ja = inLanguage('ja', { guidelines: '1. 最初にどこで知りましたか？' });
    await expect(sut.next(ja, [])).resolves.toMatchObject({ message: 'Anaさん、こんにちは。Acme Notes についてお話しする時間をいただき、ありがとうございます。最初にどこで知りましたか？' });
    const long = '同僚がチームの会議で紹介してくれて、その日のうちに使い始めました。';
    await expect(sut.next(ja, after([long]))).resolves.toMatchObject({ message: 'Acme Notes について、ほかに伝えたいことはありますか？', questionIndex: null });
    await expect(sut.next(ja, after([long, 'いいえ']))).resolves.toMatchObject({ message: 'Anaさん、ありがとうございました。質問は以上です。いただいた回答は Acme Notes のチームの役に立ちます。失礼いたします。', done: true });
  });

  it("asks the team's translation into the invite's language, question k as question k", async () => {
    const de = inLanguage('de', { guidelines: '1. How did you hear of us?\n2. What would you change?', translation: '1. Wie haben Sie von uns erfahren?\n2. Was würden Sie ändern?' });
    await expect(sut.next(de, [])).resolves.toMatchObject({ message: expect.stringMatching(/Wie haben Sie von uns erfahren\?$/), questionIndex: 0 });
    const long = 'Eine Kollegin hat es mir im letzten Frühjahr in einem Meeting gezeigt.';
    await expect(sut.next(de, after([long]))).resolves.toEqual({ message: 'Was würden Sie ändern?', done: false, questionIndex: 1 });
  });

  it('keeps as many general questions in every language, so that question indexes do not depend on it', () => {
    for (const language of ['en', 'es', 'fr', 'de', 'pt', 'it', 'nl', 'pl', 'tr', 'ja', 'zh', 'ar']) {
      const questions = interviewQuestions(null, 'Acme Notes', language);
      expect([language, questions.length]).toEqual([language, 5]);
      for (const question of questions) expect([language, question]).toEqual([language, expect.stringContaining('Acme Notes')]);
    }
  });

  it('greets without a name in the language when none was given', async () => {
    await expect(sut.next(inLanguage('fr', { intervieweeName: null }), [])).resolves.toMatchObject({ message: expect.stringMatching(/^Bonjour, et merci de prendre le temps/) });
  });
});
