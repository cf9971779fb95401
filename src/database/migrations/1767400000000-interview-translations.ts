import { MigrationInterface, QueryRunner, TableColumn } from 'typeorm';

/**
 * Studies in many languages: an interview may hold its guidelines in other languages, as JSON text
 * `{tag: guidelines}` (MEDIUMTEXT on MySQL, like the guidelines: each may be 50,000 characters). Null
 * for existing interviews, which keep asking their questions as written. Reports record the language a
 * model writes them in.
 */
export class InterviewTranslations1767400000000 implements MigrationInterface {
  name = 'InterviewTranslations1767400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const type = queryRunner.connection.driver.options.type;
    const mysql = type === 'mysql' || type === 'mariadb';
    await queryRunner.addColumn('interviews', new TableColumn({ name: 'translations', type: mysql ? 'mediumtext' : 'text', isNullable: true }));
    // The language a model's report is written in (reports/addOne's language); null: English, as before.
    await queryRunner.addColumn('reports', new TableColumn({ name: 'language', type: 'varchar', length: '16', isNullable: true }));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn('reports', 'language');
    await queryRunner.dropColumn('interviews', 'translations');
  }
}
