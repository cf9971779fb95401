import { MigrationInterface, QueryRunner, Table, TableColumn, TableForeignKey } from 'typeorm';
import { exactColumnOptions } from '../column-types';

/**
 * Every answer coded: a report keeps one row per answer it read (report_codes: the themes it was coded
 * with, and what the report read of it, so that getCodes pages them and an erasure can recount without
 * them), and remembers how many themes per question it was asked for (max_themes). Existing reports get
 * the default and no codes: they were made before answers were coded.
 */
export class ReportCodes1767100000000 implements MigrationInterface {
  name = 'ReportCodes1767100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const type = queryRunner.connection.driver.options.type;
    const mysql = type === 'mysql' || type === 'mariadb';
    // Identifiers compare exactly, without padding (see ExactIdentifiers1767000000000).
    const exact = await exactColumnOptions(queryRunner);

    await queryRunner.addColumn('reports', new TableColumn({ name: 'max_themes', type: 'integer', default: 12 }));
    await queryRunner.createTable(
      new Table({
        name: 'report_codes',
        columns: [
          { name: 'report_id', type: 'varchar', length: '36', isPrimary: true, ...exact },
          { name: 'seq', type: 'integer', isPrimary: true },
          { name: 'link_id', type: 'varchar', length: '64', ...exact },
          { name: 'turn_index', type: 'integer' },
          { name: 'question_index', type: 'integer', isNullable: true },
          { name: 'theme_ids', type: 'text' },
          { name: 'across_theme_ids', type: 'text' },
          { name: 'answer', type: mysql ? 'mediumtext' : 'text' },
          { name: 'words', type: 'integer' },
          { name: 'sentiment', type: 'double', isNullable: true },
        ],
        indices: [
          { name: 'idx_report_codes_question', columnNames: ['report_id', 'question_index', 'seq'] },
          { name: 'idx_report_codes_link', columnNames: ['report_id', 'link_id'] },
        ],
        foreignKeys: [
          new TableForeignKey({
            name: 'fk_report_codes_report',
            columnNames: ['report_id'],
            referencedTableName: 'reports',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
            onUpdate: 'NO ACTION',
          }),
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('report_codes');
    await queryRunner.dropColumn('reports', 'max_themes');
  }
}
