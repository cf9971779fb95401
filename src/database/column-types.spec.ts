import { join } from 'node:path';
import { format } from 'mysql2';
import type { DataSource } from 'typeorm';

const entities = [join(__dirname, '..', '**', '*.entity.ts')];

type ColumnTypes = typeof import('./column-types');

/** One engine's data source with every entity's metadata, and the column-types module its entities were declared with. */
interface Engine {
  dataSource: DataSource;
  hydratesAsIs: ColumnTypes['hydratesAsIs'];
  hydrator: ColumnTypes['hydrator'];
  persisted: ColumnTypes['persisted'];
  insertSql: ColumnTypes['insertSql'];
  StoredJson: typeof import('./stored-json').StoredJson;
}

/**
 * The entities take their column types from the engine DATABASE_URL names when their files are
 * imported (config/engine.ts), so each engine's entities are imported afresh, in a module registry of
 * their own, with that engine's DATABASE_URL: the metadata is the one a process on that engine builds,
 * whatever the shell running the tests exports. Built without a connection (initialize() would connect).
 */
async function load(databaseUrl: string | undefined, options: { type: 'mysql'; host: string; database: string } | { type: 'better-sqlite3'; database: string }): Promise<Engine> {
  const saved = process.env.DATABASE_URL;
  let engine: Engine | undefined;
  try {
    if (databaseUrl === undefined) delete process.env.DATABASE_URL;
    else process.env.DATABASE_URL = databaseUrl;
    await jest.isolateModulesAsync(async () => {
      // require, not import(): these must be this registry's copies, which jest gives require.
      /* eslint-disable @typescript-eslint/no-require-imports */
      const { DataSource } = require('typeorm') as typeof import('typeorm');
      const { hydratesAsIs, hydrator, persisted, insertSql } = require('./column-types') as ColumnTypes;
      const { StoredJson } = require('./stored-json') as typeof import('./stored-json');
      /* eslint-enable @typescript-eslint/no-require-imports */
      const dataSource = new DataSource({ ...options, entities });
      await (dataSource as unknown as { buildMetadatas(): Promise<void> }).buildMetadatas();
      engine = { dataSource, hydratesAsIs, hydrator, persisted, insertSql, StoredJson };
    });
  } finally {
    if (saved === undefined) delete process.env.DATABASE_URL;
    else process.env.DATABASE_URL = saved;
  }
  return engine!;
}

const ENGINES: [string, () => Promise<Engine>][] = [
  ['MySQL', () => load('mysql://root@127.0.0.1:3306/unused', { type: 'mysql', host: '127.0.0.1', database: 'unused' })],
  ['SQLite', () => load(undefined, { type: 'better-sqlite3', database: ':memory:' })],
];

describe('each engine\'s entities', () => {
  it('declare the long text columns with that engine\'s type', async () => {
    const types = async (make: () => Promise<Engine>) => new Set((await make()).dataSource.getMetadata('Invite').columns.map((c) => String(c.type)));
    const [[, mysql], [, sqlite]] = ENGINES;
    expect(await types(mysql)).toContain('mediumtext');
    expect(await types(sqlite)).not.toContain('mediumtext');
    expect(await types(sqlite)).toContain('text');
  });
});

/**
 * hydrator() copies the values of text columns instead of calling the driver: it stands on TypeORM's
 * MySQL and SQLite drivers returning such values unchanged. Checked for every such column of every
 * entity, on both drivers: when an upgrade makes one convert text, this fails and TEXT_TYPES must change.
 */
describe('hydratesAsIs', () => {
  it.each(ENGINES)('holds for every text column of every entity on %s', async (_engine, make) => {
    const { dataSource, hydratesAsIs } = await make();
    const asIs = dataSource.entityMetadatas.flatMap((m) => m.columns.filter(hydratesAsIs));
    expect(asIs.length).toBeGreaterThan(20);
    const samples = ['', 'plain', '  padded  ', '2026-11-29 09:00:00.000', '{"a":1}', 'true', '1', '0', 'ümlaut ✓ 日本語', null];
    const changed = asIs.flatMap((column) =>
      samples.filter((value) => dataSource.driver.prepareHydratedValue(value, column) !== value).map((value) => `${column.entityMetadata.name}.${column.propertyName} (${String(column.type)}): ${JSON.stringify(value)}`),
    );
    expect(changed).toEqual([]);
    // And the columns it leaves to the driver do get converted: a date, for one.
    const converted = dataSource.entityMetadatas.flatMap((m) => m.columns).filter((c) => !hydratesAsIs(c));
    expect(converted.some((c) => c.propertyName === 'createdAt')).toBe(true);
  });
});

/**
 * persisted() gives a date as the UTC text sqlDate() writes, where TypeORM's MySQL driver leaves a Date
 * for mysql2 to format: the statement mysql2 sends must be the same either way (the service's
 * connections use timezone 'Z'), and SQLite's driver must write that very text itself.
 */
describe('persisted', () => {
  const at = new Date(Date.UTC(2026, 10, 29, 9, 5, 7, 123));

  it.each(ENGINES)('writes a date as the text the driver would on %s', async (_engine, make) => {
    const { dataSource, persisted } = await make();
    const { columns, params } = persisted(dataSource.manager, 'Product', { productID: 'p1', createdAt: at, updatedAt: at });
    expect(columns).toEqual(['id', 'created_at', 'updated_at']);
    expect(params).toEqual(['p1', '2026-11-29 09:05:07.123', '2026-11-29 09:05:07.123']);
    const driverValue: unknown = dataSource.driver.preparePersistentValue(at, dataSource.getMetadata('Product').findColumnWithPropertyName('createdAt')!);
    // What goes on the wire is the same as what the driver's own value would make.
    const wire = (value: unknown) => (value instanceof Date ? format('?', [value], false, 'Z') : format('?', [String(value)]));
    expect(wire(params[1])).toBe(wire(driverValue));
  });

  it.each(ENGINES)('writes each of several dates as its own text, and refuses a property that is no column, on %s', async (_engine, make) => {
    const { dataSource, persisted } = await make();
    const later = new Date(at.getTime() + 1);
    const { params } = persisted(dataSource.manager, 'Product', { createdAt: at, updatedAt: later, name: 'n', desc: null });
    expect(params).toEqual(['2026-11-29 09:05:07.123', '2026-11-29 09:05:07.124', 'n', null]);
    // The same instant in another Date object, after a different one.
    expect(persisted(dataSource.manager, 'Product', { createdAt: later, updatedAt: at, url: undefined }).params).toEqual(['2026-11-29 09:05:07.124', '2026-11-29 09:05:07.123']);
    expect(() => persisted(dataSource.manager, 'Product', { productID: 'p1', nothing: 1 } as object)).toThrow('Product has no column nothing');
  });
});

describe('insertSql', () => {
  it.each(ENGINES)('writes a row of placeholders per row for the columns given on %s', async (engine, make) => {
    const { dataSource, insertSql } = await make();
    const q = engine === 'MySQL' ? (name: string) => `\`${name}\`` : (name: string) => `"${name}"`;
    const head = `INSERT INTO ${q('products')} (${q('id')}, ${q('name')}) VALUES `;
    expect(insertSql(dataSource, 'Product', ['id', 'name'])).toBe(`${head}(?, ?)`);
    expect(insertSql(dataSource, 'Product', ['id', 'name'], 3)).toBe(`${head}(?, ?), (?, ?), (?, ?)`);
    // Another set of columns of the same entity after it: its own text, not the first one's.
    expect(insertSql(dataSource, 'Product', ['id'], 2)).toBe(`INSERT INTO ${q('products')} (${q('id')}) VALUES (?), (?)`);
    expect(insertSql(dataSource, 'Product', ['id', 'name'], 1)).toBe(`${head}(?, ?)`);
  });
});

/** hydrator() reads a row of columns alone where it stands, and copies a row with other names into a new object. */
describe('hydrator in place', () => {
  it.each(ENGINES)('gives every value as the driver reads it, whether it converts it or returns it as it came, on %s', async (_engine, make) => {
    const { dataSource, hydrator } = await make();
    const createdAt = dataSource.getMetadata('Product').findColumnWithPropertyName('createdAt')!;
    const read = hydrator(dataSource.manager, 'Product');
    // A date as text (SQLite's driver gives that) and as a Date (mysql2's).
    for (const value of ['2026-11-29 09:05:07.123', new Date('2026-11-29T09:05:07.123Z')]) {
      const row = { productID: 'p1', name: 'Lumen', createdAt: value };
      const out = read(row);
      expect(out).toBe(row);
      expect(out).toEqual({ productID: 'p1', name: 'Lumen', createdAt: dataSource.driver.prepareHydratedValue(value, createdAt) });
      expect(out.createdAt).toBeInstanceOf(Date);
    }
    // With a name that is no column, into a new object of the columns alone, the driver's row left as it was.
    const row = { productID: 'p2', createdAt: '2026-11-29 09:05:07.123', extra: 7 };
    const copy = hydrator(dataSource.manager, 'Product')(row);
    expect(copy).not.toBe(row);
    expect(copy).toEqual({ productID: 'p2', createdAt: dataSource.driver.prepareHydratedValue('2026-11-29 09:05:07.123', createdAt) });
    expect(row.createdAt).toBe('2026-11-29 09:05:07.123');
  });
});

/** hydrator()'s storedJson: the named jsonText columns as their text, unparsed; everything else as the column types read it. */
describe('hydrator storedJson', () => {
  it.each(ENGINES)('keeps the named JSON columns as their stored text on %s', async (_engine, make) => {
    const { dataSource, hydrator, StoredJson } = await make();
    const conversation = '[{"role":"interviewer","content":"Hi \\"there\\" ✓"}]';
    const read = hydrator(dataSource.manager, 'Invite', { storedJson: ['conversation', 'userInfo'] });
    const row = read({ linkID: 'l1', conversation, userInfo: null, passthrough: '{"a":"b"}', createdAt: '2026-11-29 09:05:07.123' });
    expect(row.conversation).toBeInstanceOf(StoredJson);
    expect((row.conversation as InstanceType<typeof StoredJson>).text).toBe(conversation);
    expect(JSON.stringify(row.conversation)).toBe(conversation);
    expect(row.userInfo).toBeNull();
    // Not named: parsed by the column's transformer, as a plain read does.
    expect(row.passthrough).toEqual({ a: 'b' });
    expect(row.linkID).toBe('l1');
    // A date column is still the driver's to read.
    const createdAt = dataSource.getMetadata('Invite').findColumnWithPropertyName('createdAt')!;
    expect(row.createdAt).toEqual(dataSource.driver.prepareHydratedValue('2026-11-29 09:05:07.123', createdAt));
  });

  it.each(ENGINES)('refuses a property that is no jsonText column on %s', async (_engine, make) => {
    const { dataSource, hydrator } = await make();
    expect(() => hydrator(dataSource.manager, 'Invite', { storedJson: ['status'] })).toThrow('Invite.status is no jsonText column');
    expect(() => hydrator(dataSource.manager, 'Invite', { storedJson: ['nothing'] })).toThrow('Invite.nothing is no jsonText column');
  });
});
