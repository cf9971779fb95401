import { MigrationInterface, QueryRunner } from 'typeorm';
import { identifierCollation, PADDED_BINARY_COLLATION } from '../column-types';

/**
 * Identifier and owner columns compare without padding on MySQL/MariaDB. Their binary collation
 * (utf8mb4_bin) pads trailing spaces, so `WHERE org_id = 'orgB '` found organization orgB's rows while
 * our code compared exactly: a token scoped to "orgB " read and erased orgB's data. Every column of the
 * padded binary collation becomes the server's NO PAD binary one (MariaDB utf8mb4_nopad_bin, MySQL 8
 * utf8mb4_0900_bin), whatever table a later change adds it to: the migration reads the schema rather
 * than a list. Foreign keys are dropped around the change (the server refuses to change a referenced
 * column's collation under them) and made again as they were. SQLite compares text byte for byte
 * already: nothing to do there.
 */
export class ExactIdentifiers1767000000000 implements MigrationInterface {
  name = 'ExactIdentifiers1767000000000';

  up(queryRunner: QueryRunner): Promise<void> {
    return convert(queryRunner, PADDED_BINARY_COLLATION, identifierCollation);
  }

  down(queryRunner: QueryRunner): Promise<void> {
    return convert(queryRunner, null, async () => PADDED_BINARY_COLLATION);
  }
}

/**
 * Changes every column whose collation is `from` (or, with null, the server's NO PAD binary one) to the
 * collation `to` picks, in one ALTER TABLE per table.
 */
async function convert(queryRunner: QueryRunner, from: string | null, to: (queryRunner: QueryRunner) => Promise<string>): Promise<void> {
  const type = queryRunner.connection.driver.options.type;
  if (type !== 'mysql' && type !== 'mariadb') return;
  const source = from ?? (await identifierCollation(queryRunner));
  const target = await to(queryRunner);
  const columns: { table: string; column: string; columnType: string; nullable: string; defaultValue: string | null }[] = await queryRunner.query(
    `SELECT TABLE_NAME AS \`table\`, COLUMN_NAME AS \`column\`, COLUMN_TYPE AS columnType, IS_NULLABLE AS nullable, COLUMN_DEFAULT AS defaultValue
       FROM information_schema.COLUMNS
      WHERE TABLE_SCHEMA = DATABASE() AND COLLATION_NAME = ? AND TABLE_NAME <> 'migrations'
      ORDER BY TABLE_NAME, ORDINAL_POSITION`,
    [source],
  );
  if (columns.length === 0) return;
  const byTable = new Map<string, typeof columns>();
  for (const c of columns) byTable.set(c.table, [...(byTable.get(c.table) ?? []), c]);

  // Every foreign key of the schema: one touching a changed column on either side blocks the change.
  // Read from information_schema with the schema in every join (TypeORM's getTables mixes in keys of
  // the same name from other databases on the server).
  const keyColumns: { table: string; name: string; column: string; refTable: string; refColumn: string; onDelete: string; onUpdate: string }[] = await queryRunner.query(
    `SELECT k.TABLE_NAME AS \`table\`, k.CONSTRAINT_NAME AS name, k.COLUMN_NAME AS \`column\`, k.REFERENCED_TABLE_NAME AS refTable,
            k.REFERENCED_COLUMN_NAME AS refColumn, r.DELETE_RULE AS onDelete, r.UPDATE_RULE AS onUpdate
       FROM information_schema.KEY_COLUMN_USAGE k
       JOIN information_schema.REFERENTIAL_CONSTRAINTS r
         ON r.CONSTRAINT_SCHEMA = k.CONSTRAINT_SCHEMA AND r.TABLE_NAME = k.TABLE_NAME AND r.CONSTRAINT_NAME = k.CONSTRAINT_NAME
      WHERE k.TABLE_SCHEMA = DATABASE() AND k.REFERENCED_TABLE_NAME IS NOT NULL
      ORDER BY k.TABLE_NAME, k.CONSTRAINT_NAME, k.ORDINAL_POSITION`,
  );
  const foreignKeys = new Map<string, { table: string; name: string; columns: string[]; refTable: string; refColumns: string[]; onDelete: string; onUpdate: string }>();
  for (const k of keyColumns) {
    const key = foreignKeys.get(`${k.table}.${k.name}`) ?? { ...k, columns: [], refColumns: [] };
    key.columns.push(k.column);
    key.refColumns.push(k.refColumn);
    foreignKeys.set(`${k.table}.${k.name}`, key);
  }
  const quoted = (names: string[]) => names.map((n) => `\`${n}\``).join(', ');
  for (const k of foreignKeys.values()) await queryRunner.query(`ALTER TABLE \`${k.table}\` DROP FOREIGN KEY \`${k.name}\``);
  for (const [table, list] of byTable) {
    const changes = list.map(
      (c) => `MODIFY \`${c.column}\` ${c.columnType} CHARACTER SET utf8mb4 COLLATE ${target} ${c.nullable === 'YES' ? 'NULL' : 'NOT NULL'}${defaultClause(c.defaultValue)}`,
    );
    await queryRunner.query(`ALTER TABLE \`${table}\` ${changes.join(', ')}`);
  }
  for (const k of foreignKeys.values()) {
    await queryRunner.query(
      `ALTER TABLE \`${k.table}\` ADD CONSTRAINT \`${k.name}\` FOREIGN KEY (${quoted(k.columns)}) REFERENCES \`${k.refTable}\` (${quoted(k.refColumns)}) ON DELETE ${k.onDelete} ON UPDATE ${k.onUpdate}`,
    );
  }
}

/**
 * A column's default as information_schema gives it, for a MODIFY: MariaDB quotes string literals and
 * says NULL, MySQL gives the bare value. Identifier columns have no default today; one added later keeps it.
 */
function defaultClause(value: string | null): string {
  if (value === null || value === 'NULL') return '';
  return ` DEFAULT ${value.startsWith("'") ? value : `'${value.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`}`;
}
