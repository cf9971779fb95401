import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { Observable, map } from 'rxjs';

/** Every successful answer as {result: ...}. */
@Injectable()
export class ResultInterceptor<T> implements NestInterceptor<T, { result: T }> {
  intercept(_context: ExecutionContext, next: CallHandler<T>): Observable<{ result: T }> {
    return next.handle().pipe(map((result) => ({ result })));
  }
}
