import { ApiProperty } from '@nestjs/swagger';
import { LANGUAGE_TAGS } from '../languages';

export class LanguageDto {
  @ApiProperty({ enum: LANGUAGE_TAGS, example: 'ja', description: "The tag an interview's `language`, the room's `?lang=` and an invite's recorded language take." })
  language: string;

  @ApiProperty({ minLength: 1, maxLength: 40, example: '日本語', description: 'The language\'s own name, as a person choosing it would look for it.' })
  name: string;

  @ApiProperty({ enum: ['ltr', 'rtl'], example: 'ltr', description: 'Writing direction: the room sets dir="rtl" on its page for right-to-left languages.' })
  direction: 'ltr' | 'rtl';
}
