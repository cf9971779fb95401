import { Controller, Get, Headers, Param, Query, Res, UseFilters, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { Public } from '../auth/public.decorator';
import { OpenLinkService } from './open-link.service';
import { OpenPageFilter } from './open-page.filter';
import { OpenRateLimitGuard } from './open-rate-limit.guard';

/** The open study link a panel sends its participants to: a page (the screener) or a redirect. */
@ApiExcludeController()
@Public()
@Controller('s')
export class OpenLinkController {
  constructor(private readonly open: OpenLinkService) {}

  @Get(':openID')
  @UseGuards(OpenRateLimitGuard)
  @UseFilters(OpenPageFilter)
  async arrive(@Param('openID') openID: string, @Query() query: Record<string, unknown>, @Headers('accept-language') acceptLanguage: string | undefined, @Res() res: Response): Promise<void> {
    const answer = await this.open.arrive(openID, query, acceptLanguage);
    res.setHeader('Referrer-Policy', 'no-referrer');
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('X-Robots-Tag', 'noindex, nofollow');
    if (answer.location !== undefined) {
      res.redirect(303, answer.location);
      return;
    }
    res.setHeader('Content-Security-Policy', answer.csp);
    res.setHeader('Vary', 'Accept-Language');
    res.status(200).type('html').send(answer.html);
  }
}
