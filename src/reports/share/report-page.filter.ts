import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { errorResponseOf } from '../../common/all-exceptions.filter';
import { REPORT_PAGE_CSP, renderReportError, renderReportNotFound } from './report-page';

/** What a reader of a shared page is told, by status: plain words, never the API's message or the link. */
const PAGE_ERRORS: Record<number, [title: string, heading: string, text: string]> = {
  429: ['Too many requests', 'Too many requests', 'This page was asked for too often from your network. Please wait a minute and reload it.'],
  503: ['Report unavailable', 'The report is unavailable right now', 'The service is busy or being restarted. Please reload this page in a moment.'],
};

/**
 * A shared report's page is read by a person's browser: its errors (an unknown or expired link, too many
 * requests, the database away) come as a page too. The statuses are the global filter's.
 */
@Catch()
export class ReportPageFilter implements ExceptionFilter {
  private readonly logger = new Logger('ReportPage');

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const res = http.getResponse<Response>();
    const { status, headers } = errorResponseOf(exception, this.logger, http.getRequest<Request>());
    if (res.headersSent) {
      res.destroy();
      return;
    }
    for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
    res.setHeader('Content-Security-Policy', REPORT_PAGE_CSP);
    const [title, heading, text] = PAGE_ERRORS[status] ?? ['Something went wrong', 'Something went wrong', 'Something went wrong on our side. Please try again in a moment.'];
    res.status(status).type('html').send(status === 404 ? renderReportNotFound() : renderReportError(title, heading, text));
  }
}
