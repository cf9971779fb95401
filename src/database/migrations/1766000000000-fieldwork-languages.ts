import { MigrationInterface, QueryRunner, TableColumn } from 'typeorm';

/**
 * Fieldwork in many languages: an interview may fix the language its room speaks (null: `auto`, the
 * interviewee's browser decides), show interviewees a public title instead of its internal name,
 * carry its own consent text, and send finished interviewees to a panel's completion URL. All null
 * for existing interviews, which keep behaving as before (English rooms whose invites already
 * recorded 'en').
 */
export class FieldworkLanguages1766000000000 implements MigrationInterface {
  name = 'FieldworkLanguages1766000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumns('interviews', [
      new TableColumn({ name: 'language', type: 'varchar', length: '16', isNullable: true }),
      new TableColumn({ name: 'public_title', type: 'varchar', length: '200', isNullable: true }),
      new TableColumn({ name: 'consent_text', type: 'text', isNullable: true }),
      new TableColumn({ name: 'completion_redirect_url', type: 'varchar', length: '2048', isNullable: true }),
    ]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumns('interviews', ['completion_redirect_url', 'consent_text', 'public_title', 'language']);
  }
}
