import { Controller, Get, Param, Res, UseFilters, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { Public } from '../../auth/public.decorator';
import { RecordNotFoundException } from '../../common/errors';
import { ReportsService } from '../reports.service';
import { REPORT_PAGE_CSP, renderReportPage } from './report-page';
import { ReportPageFilter } from './report-page.filter';
import { ShareRateLimitGuard } from './share-rate-limit.guard';

/** What a shareID can look like (share makes 32 base64url characters); anything else is unknown. */
const SHARE_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** A shared report's page at /r/{shareID}: the link is the reader's credential, so no bearer token. */
@ApiExcludeController()
@Public()
@Controller()
export class ReportPageController {
  constructor(private readonly reports: ReportsService) {}

  @Get('r/:shareID')
  @UseGuards(ShareRateLimitGuard)
  @UseFilters(ReportPageFilter)
  async page(@Param('shareID') shareID: string, @Res() res: Response): Promise<void> {
    const shared = SHARE_ID.test(shareID) ? await this.reports.shared(shareID) : undefined;
    // Unknown and expired links look the same, and the page never repeats the link.
    if (!shared) throw new RecordNotFoundException('report link', 'this one');
    res.setHeader('Content-Security-Policy', REPORT_PAGE_CSP);
    res.status(200).type('html').send(renderReportPage(shared));
  }
}
