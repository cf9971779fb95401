import { MigrationInterface, QueryRunner, Table, TableForeignKey } from 'typeorm';
import { exactColumnOptions } from '../column-types';

/** Codebooks: per interview, the themes a team wants its answers coded with (setCodebook, toCodebook). */
export class Codebooks1767200000000 implements MigrationInterface {
  name = 'Codebooks1767200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const type = queryRunner.connection.driver.options.type;
    const mysql = type === 'mysql' || type === 'mariadb';
    // Identifiers compare exactly, without padding (see ExactIdentifiers1767000000000).
    const exact = await exactColumnOptions(queryRunner);
    await queryRunner.createTable(
      new Table({
        name: 'codebooks',
        columns: [
          { name: 'interview_id', type: 'varchar', length: '36', isPrimary: true, ...exact },
          { name: 'questions', type: mysql ? 'mediumtext' : 'text' },
          { name: 'updated_at', type: 'datetime', precision: 3 },
        ],
        foreignKeys: [
          new TableForeignKey({
            name: 'fk_codebooks_interview',
            columnNames: ['interview_id'],
            referencedTableName: 'interviews',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
            onUpdate: 'NO ACTION',
          }),
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('codebooks');
  }
}
