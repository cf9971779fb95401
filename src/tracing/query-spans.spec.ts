import { format } from 'mysql2';
import { maskedStatement } from './query-spans';

/**
 * mysql2 publishes a statement with its values already written in (its `format`): the mask must take
 * out every kind of value the service sends, whatever it holds.
 */
describe('maskedStatement', () => {
  const values = [
    'katherine.o\'hara@example.com',
    'a "quoted" \\ backslash',
    'line one\nline two',
    '{"answer":"it\'s fine","n":3}',
    42,
    3.5,
    new Date(Date.UTC(2026, 10, 29, 9, 0, 0)),
    Buffer.from('secret bytes'),
    'Marmalade lighthouses',
  ];

  it('leaves no value of a formatted statement, and keeps its shape', () => {
    const sql = format('SELECT `i`.`id` FROM `invites` `i` WHERE `i`.`email` = ? AND `i`.`note` IN (?, ?, ?) AND `i`.`n` = ? AND `i`.`x` > ? AND `i`.`at` < ? AND `i`.`b` = ? AND `i`.`answer` LIKE ? LIMIT 1000', values);
    const masked = maskedStatement(sql);
    expect(masked).toBe('SELECT `i`.`id` FROM `invites` `i` WHERE `i`.`email` = ? AND `i`.`note` IN (?, ?, ?) AND `i`.`n` = ? AND `i`.`x` > ?.? AND `i`.`at` < ? AND `i`.`b` = X? AND `i`.`answer` LIKE ? LIMIT ?');
    for (const word of ['katherine', 'hara', 'quoted', 'backslash', 'line', 'answer":', 'fine', '2026', 'Marmalade', 'lighthouses']) expect({ word, found: masked.includes(word) }).toEqual({ word, found: false });
  });
});
