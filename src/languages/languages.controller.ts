import { Controller, Get, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors, ApiResult } from '../common/api-responses';
import { NoParametersDto } from '../common/validation';
import { LanguageDto } from './dto/language.dto';
import { LANGUAGES } from './languages';

@ApiTags('languages')
@ApiBearerAuth()
@Controller('v1/languages')
export class LanguagesController {
  @Get('getList')
  @ApiOperation({
    summary: 'Return the languages of the interview room',
    description:
      'The languages the interview room and the built-in interviewer speak, English first. An interview\'s `language` is `auto` or one of these tags; ' +
      'with `auto` each invite is held in the best match of the link\'s `?lang=`, then the browser\'s Accept-Language, else English. ' +
      'The same list for every token; not paged. Takes no parameters.',
  })
  @ApiResult(LanguageDto, { isArray: true, maxItems: LANGUAGES.length, description: 'Every supported language' })
  @ApiErrors(400)
  getList(@Query() _query: NoParametersDto): LanguageDto[] {
    return LANGUAGES.map(({ language, name, direction }) => ({ language, name, direction }));
  }
}
