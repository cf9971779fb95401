import { MigrationInterface, QueryRunner, Table, TableColumn, TableForeignKey, TableIndex } from 'typeorm';
import { exactColumnOptions } from '../column-types';

/**
 * Recruitment through panels: per interview the open link's settings (recruitments), and on every invite
 * where it came from (`link` for every existing one), the panel's participant id, the passthrough values,
 * the screener's answers, its segment, the quota cells it holds a place in and its quality. A participant
 * id is unique within an interview: the same person arriving twice resumes one invite, never two.
 */
export class Recruitment1767500000000 implements MigrationInterface {
  name = 'Recruitment1767500000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const type = queryRunner.connection.driver.options.type;
    const mysql = type === 'mysql' || type === 'mariadb';
    // Identifiers compare exactly, without padding (see ExactIdentifiers1767000000000).
    const exact = await exactColumnOptions(queryRunner);

    await queryRunner.createTable(
      new Table({
        name: 'recruitments',
        columns: [
          { name: 'interview_id', type: 'varchar', length: '36', isPrimary: true, ...exact },
          { name: 'open_id', type: 'varchar', length: '64', isNullable: false, ...exact },
          { name: 'is_open', type: 'boolean', isNullable: false },
          { name: 'participant_param', type: 'varchar', length: '64', isNullable: false },
          { name: 'passthrough', type: 'text', isNullable: false },
          { name: 'complete_limit', type: 'integer', isNullable: true },
          { name: 'screener', type: mysql ? 'mediumtext' : 'text', isNullable: false },
          { name: 'quotas', type: mysql ? 'mediumtext' : 'text', isNullable: false },
          { name: 'redirects', type: 'text', isNullable: false },
          { name: 'updated_at', type: 'datetime', precision: 3, isNullable: false },
        ],
        indices: [new TableIndex({ name: 'uq_recruitments_open_id', columnNames: ['open_id'], isUnique: true })],
        foreignKeys: [
          new TableForeignKey({
            name: 'fk_recruitments_interview',
            columnNames: ['interview_id'],
            referencedTableName: 'interviews',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
            onUpdate: 'NO ACTION',
          }),
        ],
      }),
    );
    await queryRunner.addColumns('invites', [
      new TableColumn({ name: 'source', type: 'varchar', length: '8', isNullable: false, default: "'link'" }),
      new TableColumn({ name: 'participant_id', type: 'varchar', length: '128', isNullable: true, ...exact }),
      new TableColumn({ name: 'segment', type: 'varchar', length: '100', isNullable: true }),
      new TableColumn({ name: 'passthrough', type: 'text', isNullable: true }),
      new TableColumn({ name: 'screener', type: 'text', isNullable: true }),
      new TableColumn({ name: 'quota_cells', type: 'varchar', length: '1000', isNullable: true }),
      new TableColumn({ name: 'quality', type: 'text', isNullable: true }),
      new TableColumn({ name: 'flagged', type: 'boolean', isNullable: false, default: 0 }),
    ]);
    await queryRunner.createIndex('invites', new TableIndex({ name: 'uq_invites_participant', columnNames: ['interview_id', 'participant_id'], isUnique: true }));
    // Whether a report reads flagged invites' answers (reports/addOne includeFlagged; earlier reports read every invite's).
    await queryRunner.addColumn('reports', new TableColumn({ name: 'include_flagged', type: 'boolean', isNullable: false, default: 0 }));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn('reports', 'include_flagged');
    await queryRunner.dropIndex('invites', 'uq_invites_participant');
    await queryRunner.dropColumns('invites', ['flagged', 'quality', 'quota_cells', 'screener', 'passthrough', 'segment', 'participant_id', 'source']);
    await queryRunner.dropTable('recruitments');
  }
}
