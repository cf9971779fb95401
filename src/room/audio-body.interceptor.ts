import { BadRequestException, CallHandler, ExecutionContext, HttpException, Injectable, NestInterceptor } from '@nestjs/common';
import { raw } from 'express';
import type { Request, Response } from 'express';
import { Observable, from, switchMap } from 'rxjs';
import { audioTypeOf } from '../voice/audio-format';
import { RecordingTooLargeException, UnsupportedAudioTypeException } from '../voice/voice.errors';
import { VOICE_LIMITS } from '../voice/voice.limits';
import type { Recording } from '../voice/voice.service';

/** body-parser's error types, as the room words them (its own messages are not for people). */
const PARSER_ERRORS: Record<string, () => HttpException> = {
  'entity.too.large': () => new RecordingTooLargeException(),
  'encoding.unsupported': () => new UnsupportedAudioTypeException(),
  'request.aborted': () => new BadRequestException('the recording was not sent to the end'),
  'request.size.invalid': () => new BadRequestException('the recording\'s size did not match its Content-Length'),
};

/**
 * Reads a recording (POST /i/{linkID}/audio) into req.body as a Recording: its type from the
 * Content-Type, its bytes (none when nothing was sent). An interceptor rather than middleware: it runs after the room's rate-limit guard, so that a
 * refused request never has its body of up to 10 MiB read. A Content-Type the room does not take is
 * 415 before any byte is read; a body over VOICE_LIMITS.audioBytes 413 (by Content-Length at once,
 * else as soon as the bytes read pass it).
 */
@Injectable()
export class AudioBodyInterceptor implements NestInterceptor {
  private readonly parse = raw({ type: () => true, limit: VOICE_LIMITS.audioBytes });

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const http = context.switchToHttp();
    return from(this.read(http.getRequest<Request>(), http.getResponse<Response>())).pipe(switchMap(() => next.handle()));
  }

  private read(req: Request, res: Response): Promise<void> {
    const type = audioTypeOf(req.headers['content-type']);
    if (!type) return Promise.reject(new UnsupportedAudioTypeException());
    return new Promise((resolve, reject) =>
      this.parse(req, res, (error?: unknown) => {
        if (error) {
          const type = (error as { type?: unknown }).type;
          return reject(typeof type === 'string' && Object.hasOwn(PARSER_ERRORS, type) ? PARSER_ERRORS[type]() : error);
        }
        const recording: Recording = { type, bytes: Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0) };
        req.body = recording;
        resolve();
      }),
    );
  }
}
