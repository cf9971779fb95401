import { CallHandler, ExecutionContext, Injectable, NestInterceptor, StreamableFile, Type, UseInterceptors, applyDecorators } from '@nestjs/common';
import type { Request, Response } from 'express';
import { Observable, map } from 'rxjs';
import { ApiResult } from './api-responses';
import type { ListAnswer } from './keyset';

/** `<same path and query, with cursor=next>; rel="next"` */
export function nextLink(req: Pick<Request, 'originalUrl' | 'query'>, next: string): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(req.query)) if (key !== 'cursor' && typeof value === 'string') params.set(key, value);
  params.set('cursor', next);
  return `<${req.originalUrl.split('?', 1)[0]}?${params.toString()}>; rel="next"`;
}

/**
 * Turns a handler's Page into its items and, when another page exists, the `Link: rel="next"` header.
 * A whole list streamed (a StreamableFile) passes as it is.
 */
@Injectable()
export class PageInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler<ListAnswer<unknown>>): Observable<unknown[] | StreamableFile> {
    return next.handle().pipe(
      map((page) => {
        if (page instanceof StreamableFile) return page;
        if (page.next) {
          const http = context.switchToHttp();
          http.getResponse<Response>().setHeader('Link', nextLink(http.getRequest<Request>(), page.next));
        }
        return page.items;
      }),
    );
  }
}

/** A getList route: its handler returns a ListAnswer; clients get the items and the Link header, as documented. */
export function Paginated(model: Type<unknown>, description: string): MethodDecorator {
  return applyDecorators(UseInterceptors(PageInterceptor), ApiResult(model, { isArray: true, paged: true, description }));
}
