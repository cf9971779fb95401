import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { hydratesAsIs } from './column-types';

/**
 * hydrator() copies the values of text columns instead of calling the driver: it stands on TypeORM's
 * MySQL and SQLite drivers returning such values unchanged. Checked for every such column of every
 * entity, on both drivers: when an upgrade makes one convert text, this fails and TEXT_TYPES must change.
 */
describe('hydratesAsIs', () => {
  const entities = [join(__dirname, '..', '**', '*.entity.ts')];

  it.each([
    ['MySQL', () => new DataSource({ type: 'mysql', host: '127.0.0.1', database: 'unused', entities })],
    ['SQLite', () => new DataSource({ type: 'better-sqlite3', database: ':memory:', entities })],
  ])('holds for every text column of every entity on %s', async (_engine, make) => {
    const dataSource = make();
    // The entities' metadata without a connection (initialize() would connect).
    await (dataSource as unknown as { buildMetadatas(): Promise<void> }).buildMetadatas();
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
