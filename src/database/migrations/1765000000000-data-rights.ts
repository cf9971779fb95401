import { MigrationInterface, QueryRunner, Table, TableColumn, TableColumnOptions, TableIndex } from 'typeorm';

/**
 * Data rights: interviews may keep their invites for a number of days (retention_days) and redact
 * identifiers from answers (redact_pii); an invite remembers when its interviewee's data was erased
 * (erased_on: retention passes over it, and a profile with no unerased invite left goes too); every
 * erasure is audited in erasures, with the address only as its SHA-256.
 */
export class DataRights1765000000000 implements MigrationInterface {
  name = 'DataRights1765000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const type = queryRunner.connection.driver.options.type;
    const mysql = type === 'mysql' || type === 'mariadb';
    const exact = mysql ? { charset: 'utf8mb4', collation: 'utf8mb4_bin' } : {};
    const time = (name: string, isNullable = false): TableColumnOptions => ({ name, type: 'datetime', precision: 3, isNullable });
    const count = (name: string): TableColumnOptions => ({ name, type: 'integer', isNullable: false, default: 0 });

    await queryRunner.addColumns('interviews', [
      new TableColumn({ name: 'retention_days', type: 'integer', isNullable: true }),
      new TableColumn({ name: 'redact_pii', type: 'boolean', isNullable: false, default: 0 }),
    ]);
    await queryRunner.addColumn('invites', new TableColumn(time('erased_on', true)));
    // The retention sweep: finished invites by how long ago they last changed.
    await queryRunner.createIndex('invites', new TableIndex({ name: 'idx_invites_retention', columnNames: ['status', 'updated_at'] }));

    await queryRunner.createTable(
      new Table({
        name: 'erasures',
        columns: [
          { name: 'id', type: 'varchar', length: '36', isPrimary: true, ...exact },
          { name: 'org_id', type: 'varchar', length: '100', isNullable: true, ...exact },
          { name: 'user_id', type: 'varchar', length: '100', isNullable: true, ...exact },
          { name: 'erased_by', type: 'varchar', length: '100', isNullable: false },
          { name: 'email_sha256', type: 'varchar', length: '64', isNullable: false, ...exact },
          count('invites'),
          count('profiles'),
          count('reports'),
          time('created_at'),
        ],
        indices: [
          { name: 'idx_erasures_org_created', columnNames: ['org_id', 'created_at', 'id'] },
          { name: 'idx_erasures_user_created', columnNames: ['user_id', 'created_at', 'id'] },
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('erasures');
    await queryRunner.dropIndex('invites', 'idx_invites_retention');
    await queryRunner.dropColumn('invites', 'erased_on');
    await queryRunner.dropColumns('interviews', ['redact_pii', 'retention_days']);
  }
}
