import { Controller, Get, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors, ApiResult } from '../common/api-responses';
import { NoParametersDto } from '../common/validation';
import { InterviewerDto } from './dto/interviewer.dto';
import { INTERVIEWER_LIMITS } from './interviewer.limits';
import { InterviewersService } from './interviewers.service';

@ApiTags('interviewers')
@ApiBearerAuth()
@Controller('v1/interviewers')
export class InterviewersController {
  constructor(private readonly interviewers: InterviewersService) {}

  @Get('getList')
  @ApiOperation({
    summary: 'Return the interviewer agents',
    description:
      'The agents an interview\'s `interviewer` may name (interviews/updateOne): the built-in `default` first, then those configured in `INTERVIEWER_AGENTS`, ' +
      'in the configuration\'s order. The same list for every token; it never shows endpoints, models or keys. Takes no parameters.',
  })
  @ApiResult(InterviewerDto, { isArray: true, maxItems: INTERVIEWER_LIMITS.agents + 1, description: 'Every interviewer agent of the service' })
  @ApiErrors(400)
  getList(@Query() _query: NoParametersDto): InterviewerDto[] {
    return this.interviewers.list();
  }
}
