import { MigrationInterface, QueryRunner, TableColumn } from 'typeorm';

/**
 * Studies in many languages: an interview may hold its guidelines in other languages, as JSON text
 * `{tag: guidelines}` (MEDIUMTEXT on MySQL, like the guidelines: each may be 50,000 characters). Null
 * for existing interviews, which keep asking their questions as written.
 */
export class InterviewTranslations1767400000000 implements MigrationInterface {
  name = 'InterviewTranslations1767400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const type = queryRunner.connection.driver.options.type;
    const mysql = type === 'mysql' || type === 'mariadb';
    await queryRunner.addColumn('interviews', new TableColumn({ name: 'translations', type: mysql ? 'mediumtext' : 'text', isNullable: true }));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn('interviews', 'translations');
  }
}
