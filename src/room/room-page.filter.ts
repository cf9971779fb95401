import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { errorResponseOf } from '../common/all-exceptions.filter';
import { renderRoomError, roomCsp } from './room-page';
import { negotiateLanguage } from '../languages/languages';

/**
 * The interview room's page is read by a person's browser: its errors (an unknown link, too many
 * requests, the database away) come as a page too, in plain words, never repeating the link.
 * The statuses are the global filter's (errorResponseOf).
 */
@Catch()
export class RoomPageFilter implements ExceptionFilter {
  private readonly logger = new Logger('RoomPage');

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const res = http.getResponse<Response>();
    const req = http.getRequest<Request>();
    const { status, headers } = errorResponseOf(exception, this.logger, req);
    const lang = req.query?.lang;
    const language = negotiateLanguage(null, typeof lang === 'string' ? lang : null, req.headers['accept-language']);
    if (res.headersSent) {
      res.destroy();
      return;
    }
    for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
    res.setHeader('Content-Security-Policy', roomCsp());
    res.setHeader('Referrer-Policy', 'no-referrer');
    res.status(status).type('html').send(renderRoomError(status, language));
  }
}
