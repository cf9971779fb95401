import { ArgumentsHost, Catch, ExceptionFilter } from '@nestjs/common';
import type { Request, Response } from 'express';
import { negotiateLanguage } from '../languages/languages';
import { roomCsp } from './room-page';
import { RoomPageFilter } from './room-page.filter';
import { renderOpenError } from './open-page';
import { MissingParticipantException, StudyClosedException } from '../recruitment/recruitment.errors';

/**
 * The open link's errors as pages: a closed study (410) and a link without the participant id (400)
 * say so in the person's language; everything else as the room's page says it (RoomPageFilter).
 */
@Catch()
export class OpenPageFilter implements ExceptionFilter {
  private readonly room = new RoomPageFilter();

  catch(exception: unknown, host: ArgumentsHost): void {
    const kind = exception instanceof StudyClosedException ? 'closed' : exception instanceof MissingParticipantException ? 'missing' : null;
    if (!kind) return this.room.catch(exception, host);
    const http = host.switchToHttp();
    const req = http.getRequest<Request>();
    const res = http.getResponse<Response>();
    const lang = req.query?.lang;
    const language = negotiateLanguage(null, typeof lang === 'string' ? lang : null, req.headers['accept-language']);
    res.setHeader('Content-Security-Policy', roomCsp());
    res.setHeader('Referrer-Policy', 'no-referrer');
    res.status(kind === 'closed' ? 410 : 400).type('html').send(renderOpenError(kind, language));
  }
}
