import { CallHandler, ExecutionContext, Injectable, NestInterceptor, StreamableFile } from '@nestjs/common';
import { Observable, map } from 'rxjs';

/**
 * The contract's success envelope (APP_INTERCEPTOR): what a handler returns goes out as {result: ...}.
 * A handler that streams its answer (a download, an unpaged list written row by row, which writes its
 * own {"result": [...]}) returns a StreamableFile, and it passes as it is; a handler that writes the
 * response itself (@Res(), the HTML pages) is not answered from its value at all. Errors never pass
 * here: the exception filter writes {error, message}.
 */
@Injectable()
export class ResultInterceptor implements NestInterceptor {
  intercept(_context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(map((value: unknown) => (value instanceof StreamableFile ? value : { result: value })));
  }
}
