import type { ColumnType, DataSource, EntityManager, EntityTarget, ObjectLiteral, QueryRunner, SelectQueryBuilder, ValueTransformer } from 'typeorm';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';
import type { EntityMetadata } from 'typeorm/metadata/EntityMetadata';
import { ENGINE } from '../config/engine';
import { rawRows } from './query-text';
import { StoredJson } from './stored-json';

/**
 * Entities are declared once for both engines. MySQL's TEXT holds only 64 KB, too small for
 * guidelines and transcripts, and SQLite knows no MEDIUMTEXT. MEDIUMTEXT holds 16 MB
 * (transcripts are promised 5 MB).
 */
const MYSQL = ENGINE === 'mysql';

export const LONG_TEXT: ColumnType = MYSQL ? 'mediumtext' : 'text';

/** Binary data up to 16 MB: MySQL's MEDIUMBLOB (its BLOB holds 64 KB); SQLite's BLOB has no size of its own. */
export const LONG_BLOB: ColumnType = MYSQL ? 'mediumblob' : 'blob';

/**
 * Identifiers and owner references compare byte for byte. MySQL's default collations are
 * case-insensitive: org "acme" would match "ACME" (another organization's data) and linkIDs would
 * lose entropy; its binary collation utf8mb4_bin still pads trailing spaces ("orgB " = "orgB"). Such
 * columns get the server's NO PAD binary collation, which only the server can name (MariaDB
 * utf8mb4_nopad_bin, MySQL 8 utf8mb4_0900_bin): migrations ask it (identifierCollation), and the
 * schema test checks that no column pads. utf8mb4 rather than ascii: comparing an ascii column with a
 * utf8mb4 parameter makes MySQL convert the column and skip its index. SQLite compares binary already.
 */
export const EXACT_TEXT = MYSQL ? ({ charset: 'utf8mb4' } as const) : {};

/** The binary collation that pads trailing spaces: what identifier columns had before ExactIdentifiers1767000000000. */
export const PADDED_BINARY_COLLATION = 'utf8mb4_bin';

/** The NO PAD binary collations, in order of preference: MySQL 8's, then MariaDB's (10.2 and later). */
const NO_PAD_BINARY_COLLATIONS = ['utf8mb4_0900_bin', 'utf8mb4_nopad_bin'];

/** The collation for identifier columns on this MySQL/MariaDB server: binary and NO PAD. */
export async function identifierCollation(queryRunner: QueryRunner): Promise<string> {
  const rows: { name: string }[] = await queryRunner.query(
    `SELECT COLLATION_NAME AS name FROM information_schema.COLLATIONS WHERE COLLATION_NAME IN (${NO_PAD_BINARY_COLLATIONS.map(() => '?').join(', ')})`,
    NO_PAD_BINARY_COLLATIONS,
  );
  const found = NO_PAD_BINARY_COLLATIONS.find((name) => rows.some((row) => row.name === name));
  if (!found) throw new Error(`the database server has no NO PAD binary collation (${NO_PAD_BINARY_COLLATIONS.join(' or ')}): MySQL 8.0 or MariaDB 10.2 and later are needed`);
  return found;
}

/**
 * Column options for an identifier column in a migration (TypeORM's Table API): utf8mb4 with the
 * server's NO PAD binary collation on MySQL/MariaDB, nothing on SQLite.
 */
export async function exactColumnOptions(queryRunner: QueryRunner): Promise<{ charset?: string; collation?: string }> {
  const type = queryRunner.connection.driver.options.type;
  if (type !== 'mysql' && type !== 'mariadb') return {};
  return { charset: 'utf8mb4', collation: await identifierCollation(queryRunner) };
}

/** Millisecond timestamps on both engines (SQLite stores them as ISO-like text). */
export const TIMESTAMP = { type: 'datetime', precision: 3 } as const;

/**
 * JSON kept as text we write ourselves rather than a native JSON column: MySQL's JSON type
 * reorders object keys and MariaDB's is LONGTEXT anyway; text keeps transcripts byte-exact.
 */
export const jsonText: ValueTransformer = {
  to: (value: unknown) => (value === undefined ? undefined : value === null ? null : JSON.stringify(value)),
  from: (value: string | null) => (value === null || value === undefined ? null : JSON.parse(value)),
};

/**
 * A hand-written SELECT's row as the entity's column types read it: each value whose name is a property
 * of the entity goes through the driver's and the column's own conversion (dates, booleans, JSON), as
 * in a QueryBuilder's read; other names are left out. For reads too hot to have their SQL built on
 * every call (see where it is used).
 */
export function hydrated<T extends ObjectLiteral>(db: EntityManager, target: EntityTarget<T>, row: Record<string, unknown>): T {
  return hydrator<T>(db, target)(row);
}

/**
 * Column types whose values TypeORM's drivers hydrate as they come (text in, the same text out): a
 * hydrator copies them without the driver's call. hydratesAsIs() in column-types.spec.ts holds every
 * such column of every entity to the drivers' own prepareHydratedValue on both engines.
 */
const TEXT_TYPES: ReadonlySet<unknown> = new Set([String, 'varchar', 'char', 'text', 'tinytext', 'mediumtext', 'longtext', 'nvarchar', 'nchar']);

/** Whether the driver's hydration of this column returns its value unchanged (see TEXT_TYPES). */
export function hydratesAsIs(column: ColumnMetadata): boolean {
  return !column.transformer && TEXT_TYPES.has(column.type);
}

/**
 * hydrated() for many rows of one SELECT: which of its names are the entity's columns, and which of
 * those the driver converts, is worked out once, from the first row (every row of a SELECT has the same
 * names). Looking every name up again (TypeORM finds a column by a linear search) and calling the driver
 * for text it returns as it is cost more than the conversions themselves on a 1,000-row list
 * (products/getList's profile). When every name is a column (a SELECT of the entity's properties, as
 * the lists are), the row is converted where it stands: the driver's row is ours, and a copy of each
 * row of a large list was garbage the next collection had to sweep.
 */
export function hydrator<T extends ObjectLiteral>(db: EntityManager, target: EntityTarget<T>, options: HydrateOptions = {}): (row: Record<string, unknown>) => T {
  const metadata = db.connection.getMetadata(target);
  const driver = db.connection.driver;
  const stored = new Set(options.storedJson ?? []);
  for (const name of stored) {
    if (metadata.findColumnWithPropertyName(name)?.transformer !== jsonText) throw new Error(`${metadata.name}.${name} is no jsonText column`);
  }
  let plan: { names: string[]; converted: (ColumnMetadata | null)[]; asStored: boolean[]; inPlace: boolean } | undefined;
  return (row) => {
    if (!plan) {
      const all = Object.keys(row);
      const known = all.flatMap((name) => {
        const column = metadata.findColumnWithPropertyName(name);
        // null: a text column, whose value the driver would return as it is (TEXT_TYPES).
        return column ? [{ name, column: hydratesAsIs(column) ? null : column }] : [];
      });
      const inPlace = known.length === all.length;
      // In place, only the names the driver converts need a visit.
      const visited = inPlace ? known.filter((k) => k.column) : known;
      plan = { names: visited.map((k) => k.name), converted: visited.map((k) => k.column), asStored: visited.map((k) => stored.has(k.name)), inPlace };
    }
    const { names, converted, asStored, inPlace } = plan;
    const out: Record<string, unknown> = inPlace ? row : {};
    for (let i = 0; i < names.length; i++) {
      const name = names[i];
      const column = converted[i];
      const value = row[name];
      // Both drivers give a text column's value as a string; null (and anything else) as the column reads it.
      const read = asStored[i] && typeof value === 'string' ? new StoredJson(value) : column ? driver.prepareHydratedValue(value, column) : value;
      // In place, a value the driver returns as it came (mysql2's Date of a datetime column) is not stored
      // again: a store by a computed name costs more than the comparison (this loop's self time in a
      // profile of products/getList of 10,000 rows: 175 ms before, 151 after).
      if (!inPlace || read !== value) out[name] = read;
    }
    return out as T;
  };
}

/** How a hydrator reads: `storedJson`, jsonText properties kept as their text (StoredJson), unparsed. */
export interface HydrateOptions {
  storedJson?: readonly string[];
}

/**
 * A list's QueryBuilder selecting these properties of `alias`, each under its own name, and how to read
 * its rows: raw, through the column types (hydrator), not as entities. TypeORM's entity transformer
 * (rows grouped by primary key for joins a list has none of, then each column set) cost more than the
 * query itself on a 1,000-row list (products/getList's and invites/getList's profiles).
 */
export function selectProperties<E extends ObjectLiteral>(query: SelectQueryBuilder<E>, alias: string, props: readonly string[]): SelectQueryBuilder<E> {
  query.select(`${alias}.${props[0]}`, props[0]);
  for (const prop of props.slice(1)) query.addSelect(`${alias}.${prop}`, prop);
  return query;
}

/**
 * The rows of a selectProperties() query of `target`, as its column types read them, run by `db` (the
 * manager the query's builder came from), its SQL text kept by shape (rawRows).
 */
export function readProperties<T extends ObjectLiteral>(target: EntityTarget<ObjectLiteral>, db: EntityManager, options: HydrateOptions = {}): (query: SelectQueryBuilder<ObjectLiteral>) => Promise<T[]> {
  const read = hydrator<T>(db, target as EntityTarget<T>, options);
  return async (query) => (await rawRows<Record<string, unknown>>(query, db)).map(read);
}

/**
 * The other way: an entity's values for a hand-written write, as its columns store them, with their
 * column names. A date is given as the UTC text both engines store (sqlDate; TypeORM's SQLite driver
 * writes that text itself, its MySQL driver leaves a Date): mysql2 would format a Date wherever it
 * stands in the statement, three times a row in createInvites' multi-row INSERT of the same dates
 * (a profile's largest difference from ef242af, which formatted them once).
 */
export function persisted<T extends ObjectLiteral>(db: EntityManager, target: EntityTarget<T>, values: Partial<T>): { columns: string[]; params: unknown[] } {
  const metadata = db.connection.getMetadata(target);
  const byProperty = columnsByProperty(metadata);
  const columns: string[] = [];
  const params: unknown[] = [];
  // A write's dates are mostly one instant (createdAt and updatedAt of a new row): its text is made once.
  let lastTime = NaN;
  let lastText = '';
  for (const key in values) {
    if (values[key] === undefined) continue;
    const column = byProperty.get(key);
    if (!column) throw new Error(`${metadata.name} has no column ${key}`);
    columns.push(column.databaseName);
    const value: unknown = db.connection.driver.preparePersistentValue(values[key], column);
    if (value instanceof Date) {
      if (value.getTime() !== lastTime) {
        lastTime = value.getTime();
        lastText = sqlDate(value);
      }
      params.push(lastText);
    } else params.push(value);
  }
  return { columns, params };
}

/**
 * Each entity's columns by property name, made once: TypeORM's findColumnWithPropertyName searches the
 * columns one by one, and a write asks it for every property it sets.
 */
const propertyColumns = new WeakMap<EntityMetadata, ReadonlyMap<string, ColumnMetadata>>();

function columnsByProperty(metadata: EntityMetadata): ReadonlyMap<string, ColumnMetadata> {
  let byProperty = propertyColumns.get(metadata);
  if (!byProperty) {
    byProperty = new Map(metadata.columns.map((column) => [column.propertyName, column]));
    propertyColumns.set(metadata, byProperty);
  }
  return byProperty;
}

/**
 * `alias.column AS prefixProperty` for each property (every column when none are named), quoted: the
 * list of a SELECT written once as SQL text, whose names hydrated() and hydrator() read back.
 */
export function selectList(dataSource: DataSource, target: EntityTarget<ObjectLiteral>, alias: string, props?: readonly string[], prefix = ''): string {
  const metadata = dataSource.getMetadata(target);
  const q = (name: string) => dataSource.driver.escape(name);
  const columns = props ? props.map((prop) => metadata.findColumnWithPropertyName(prop)!) : metadata.columns;
  return columns.map((c) => `${alias}.${q(c.databaseName)} AS ${q(prefix + c.propertyName)}`).join(', ');
}

/** `INSERT INTO table (columns) VALUES (?, ...)`, `rows` times: a write of persisted()'s columns as SQL text. */
export function insertSql(dataSource: DataSource, target: EntityTarget<ObjectLiteral>, columns: readonly string[], rows = 1): string {
  const metadata = dataSource.getMetadata(target);
  let texts = insertTexts.get(metadata);
  if (!texts) insertTexts.set(metadata, (texts = new Map()));
  // Kept by the set of columns alone (a few per entity: which optional columns a write sets), not by
  // the number of rows, which createInvites varies up to a thousand.
  const key = columns.join(',');
  let text = texts.get(key);
  if (text === undefined) {
    const q = (name: string) => dataSource.driver.escape(name);
    text = { head: `INSERT INTO ${q(metadata.tableName)} (${columns.map(q).join(', ')}) VALUES `, row: `(${columns.map(() => '?').join(', ')})` };
    texts.set(key, text);
  }
  return rows === 1 ? text.head + text.row : text.head + new Array<string>(rows).fill(text.row).join(', ');
}

/** insertSql's statement heads and row placeholders by entity, then by columns. */
const insertTexts = new WeakMap<EntityMetadata, Map<string, { head: string; row: string }>>();

/** A datetime from a raw select: mysql2 gives a Date (timezone 'Z'), SQLite the text TypeORM stored. */
export function rawDate(value: Date | string): Date {
  return typeof value === 'string' ? new Date(`${value.replace(' ', 'T')}Z`) : value;
}

/** A Date as both engines store DATETIME(3) here: UTC text 'YYYY-MM-DD HH:MM:SS.mmm' (what TypeORM writes on SQLite). */
export function sqlDate(date: Date): string {
  return date.toISOString().replace('T', ' ').replace('Z', '');
}

/**
 * Find options that lock the rows read until the transaction ends (SELECT ... FOR UPDATE) on MySQL.
 * SQLite has one writer at a time already, and TypeORM's better-sqlite3 driver refuses lock modes.
 */
export const FOR_UPDATE = MYSQL ? ({ lock: { mode: 'pessimistic_write' } } as const) : {};

/** The same for raw SQL: appended to a SELECT. */
export const FOR_UPDATE_SQL = MYSQL ? ' FOR UPDATE' : '';

/**
 * The same for a QueryBuilder: locks the rows it reads until the transaction ends (MySQL); with
 * `skipLocked`, passes over rows another transaction holds and takes the rest (work queues).
 */
export function forUpdate<T extends ObjectLiteral>(query: SelectQueryBuilder<T>, options: { skipLocked?: boolean } = {}): SelectQueryBuilder<T> {
  if (!MYSQL) return query;
  query.setLock('pessimistic_write');
  if (options.skipLocked) query.setOnLocked('skip_locked');
  return query;
}

