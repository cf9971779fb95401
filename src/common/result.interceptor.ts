import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { Observable, map } from 'rxjs';

/** Wraps every handler's return value in the contract's success envelope: {result: ...}. */
@Injectable()
export class ResultInterceptor implements NestInterceptor {
  intercept(_context: ExecutionContext, next: CallHandler): Observable<{ result: unknown }> {
    return next.handle().pipe(map((result: unknown) => ({ result })));
  }
}
