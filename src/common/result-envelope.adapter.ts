import { StreamableFile } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';

/**
 * The contract's success envelope: what a handler returns goes out as {result: ...}. Errors never pass
 * here (AllExceptionsFilter writes {error, message} itself), nor do handlers that write the response
 * themselves (@Res(), the room's page).
 *
 * It lives in the HTTP adapter, where Nest writes every handler's value, rather than in a global
 * interceptor: any interceptor makes Nest run each request of each route through its rxjs pipeline
 * (observables, a subject, async scopes), which measured about a seventh of a single read's throughput.
 * Routes that need an interceptor for their own work (the `Link` header of paged lists) still have theirs.
 */
export class ResultEnvelopeAdapter extends ExpressAdapter {
  override reply(response: unknown, body: unknown, statusCode?: number): unknown {
    return super.reply(response, body instanceof StreamableFile ? body : { result: body }, statusCode);
  }
}
