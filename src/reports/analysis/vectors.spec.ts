import type { AnalysisAnswer } from './analysis.types';
import { buildCorpus } from './corpus';
import { vectorize } from './vectors';
import { Yielder } from './yielder';

function answer(linkID: string, text: string): AnalysisAnswer {
  return { linkID, turnIndex: 1, questionIndex: 0, answer: text, words: text.split(' ').length, sentiment: null, language: 'en', followUp: false };
}

describe('vectorize', () => {
  it('writes one entry per (answer, feature) pair: sublinear tf times smoothed idf, L2-normalised, stems of one answer left out', async () => {
    const yielder = new Yielder(60_000);
    const corpus = await buildCorpus([answer('a', 'card card blocked'), answer('b', 'card lost'), answer('c', 'blocked account')], yielder);
    const vectors = await vectorize(corpus, [0, 1, 2], new Set(), yielder);

    // "card" and "block" are in two answers each; "lost" and "account" in one, so no feature.
    const card = vectors.featureOf.get(corpus.stemIds.get('en\u0000card')!)!;
    const block = vectors.featureOf.get(corpus.stemIds.get('en\u0000block')!)!;
    expect([card, block]).toEqual([0, 1]);
    expect(vectors.rows.dim).toBe(2);
    const idf = Math.log(4 / 3) + 1;
    expect(Array.from(vectors.idf)).toEqual([idf, idf]);

    // Exactly as many entries as pairs: 2 + 1 + 1, no slack after the last row.
    expect(Array.from(vectors.rows.starts)).toEqual([0, 2, 3, 4]);
    expect(vectors.rows.features).toHaveLength(4);
    expect(vectors.rows.weights).toHaveLength(4);
    expect(Array.from(vectors.rows.features)).toEqual([card, block, card, block]);
    const norm = Math.hypot(1 + Math.log(2), 1);
    expect(Array.from(vectors.rows.weights)).toEqual([Math.fround((1 + Math.log(2)) / norm), Math.fround(1 / norm), 1, 1]);
    expect(Array.from(vectors.docOfRow)).toEqual([0, 1, 2]);
  });

  it('gives an answer with no kept feature an empty row, and leaves out the excluded stems', async () => {
    const yielder = new Yielder(60_000);
    const corpus = await buildCorpus([answer('a', 'card blocked'), answer('b', 'card blocked'), answer('c', 'lost')], yielder);
    const vectors = await vectorize(corpus, [0, 1, 2], new Set([corpus.stemIds.get('en\u0000card')!]), yielder);
    expect(vectors.rows.dim).toBe(1);
    expect(Array.from(vectors.rows.starts)).toEqual([0, 1, 2, 2]);
    expect(Array.from(vectors.rows.weights)).toEqual([1, 1]);
  });
});
