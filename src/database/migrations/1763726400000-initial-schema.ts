import { MigrationInterface, QueryRunner, Table, TableColumnOptions, TableForeignKey } from 'typeorm';

/**
 * Written with TypeORM's Table API rather than generated SQL, so one history runs on both
 * MySQL/MariaDB and SQLite. The schema test compares the result with the entities on each engine.
 */
export class InitialSchema1763726400000 implements MigrationInterface {
  name = 'InitialSchema1763726400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const type = queryRunner.connection.driver.options.type;
    const mysql = type === 'mysql' || type === 'mariadb';
    const longText = mysql ? 'mediumtext' : 'text';
    // Identifiers and owner references compare exactly (see EXACT_TEXT in column-types.ts).
    const exact = mysql ? { charset: 'utf8mb4', collation: 'utf8mb4_bin' } : {};
    const id = (name: string, length = 36): TableColumnOptions => ({ name, type: 'varchar', length: String(length), isPrimary: true, ...exact });
    const ref = (name: string, length: number, isNullable = true): TableColumnOptions => ({ name, type: 'varchar', length: String(length), isNullable, ...exact });
    const str = (name: string, length: number, isNullable = true): TableColumnOptions => ({ name, type: 'varchar', length: String(length), isNullable });
    const time = (name: string, isNullable = false): TableColumnOptions => ({ name, type: 'datetime', precision: 3, isNullable });
    const text = (name: string, type: string, isNullable = true): TableColumnOptions => ({ name, type, isNullable });

    await queryRunner.createTable(
      new Table({
        name: 'api_tokens',
        columns: [
          id('id'),
          str('name', 100),
          ref('token_hash', 64, false),
          { name: 'is_admin', type: 'boolean', isNullable: false, default: 0 },
          ref('org_id', 100),
          ref('user_id', 100),
          time('created_at'),
          time('revoked_at', true),
        ],
        indices: [{ name: 'uq_api_tokens_hash', columnNames: ['token_hash'], isUnique: true }],
      }),
    );

    await queryRunner.createTable(
      new Table({
        name: 'products',
        columns: [
          id('id'),
          str('name', 200, false),
          text('description', 'text'),
          ref('org_id', 100),
          ref('user_id', 100),
          str('url', 2048),
          str('image_link', 2048),
          time('created_at'),
          time('updated_at'),
        ],
        indices: [
          { name: 'idx_products_org_created', columnNames: ['org_id', 'created_at', 'id'] },
          { name: 'idx_products_user_created', columnNames: ['user_id', 'created_at', 'id'] },
        ],
      }),
    );

    await queryRunner.createTable(
      new Table({
        name: 'interviews',
        columns: [
          id('id'),
          ref('product_id', 36, false),
          str('name', 200, false),
          text('guidelines', longText),
          ref('user_id', 100),
          str('interviewer', 100, false),
          time('created_at'),
          time('updated_at'),
        ],
        indices: [{ name: 'idx_interviews_product_created', columnNames: ['product_id', 'created_at', 'id'] }],
        foreignKeys: [fk('fk_interviews_product', 'product_id', 'products', 'id')],
      }),
    );

    await queryRunner.createTable(
      new Table({
        name: 'invites',
        columns: [
          id('link_id', 64),
          ref('interview_id', 36, false),
          ref('product_id', 36, false),
          ref('org_id', 100),
          text('user_info', longText),
          str('status', 16, false),
          time('created_at'),
          time('completed_on', true),
          text('conversation', longText, false),
          time('updated_at'),
        ],
        indices: [
          { name: 'idx_invites_interview_created', columnNames: ['interview_id', 'created_at', 'link_id'] },
          { name: 'idx_invites_product_created', columnNames: ['product_id', 'created_at', 'link_id'] },
        ],
        foreignKeys: [
          fk('fk_invites_interview', 'interview_id', 'interviews', 'id'),
          fk('fk_invites_product', 'product_id', 'products', 'id'),
        ],
      }),
    );

    await queryRunner.createTable(
      new Table({
        name: 'profiles',
        columns: [
          id('id'),
          str('first_name', 200),
          str('last_name', 200),
          text('metadata', longText),
          text('details', longText),
          text('history', longText, false),
          time('created_at'),
        ],
        indices: [{ name: 'idx_profiles_created', columnNames: ['created_at', 'id'] }],
      }),
    );

    await queryRunner.createTable(
      new Table({
        name: 'profile_products',
        columns: [
          id('profile_id'),
          id('product_id'),
        ],
        indices: [{ name: 'idx_profile_products_product', columnNames: ['product_id', 'profile_id'] }],
        foreignKeys: [
          fk('fk_profile_products_profile', 'profile_id', 'profiles', 'id', 'CASCADE'),
          fk('fk_profile_products_product', 'product_id', 'products', 'id'),
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['profile_products', 'profiles', 'invites', 'interviews', 'products', 'api_tokens']) {
      await queryRunner.dropTable(table);
    }
  }
}

function fk(name: string, column: string, table: string, refColumn: string, onDelete = 'RESTRICT'): TableForeignKey {
  return new TableForeignKey({
    name,
    columnNames: [column],
    referencedTableName: table,
    referencedColumnNames: [refColumn],
    onDelete,
    onUpdate: 'NO ACTION',
  });
}

