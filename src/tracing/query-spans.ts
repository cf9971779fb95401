import { tracingChannel } from 'node:diagnostics_channel';
import { type Span, SpanKind, SpanStatusCode, context, trace } from '@opentelemetry/api';
import { serviceTracer } from '../common/spans';

/**
 * What mysql2 publishes on its `mysql2:query` and `mysql2:execute` tracing channels (mysql2/lib/tracing.js):
 * the statement as sent, values inlined by the client, and where it went. `span` is ours.
 */
interface QueryMessage {
  query?: string;
  database?: string;
  serverAddress?: string;
  serverPort?: number;
  error?: unknown;
  span?: Span;
}

/**
 * Masks what a statement carries: quoted strings and numbers become `?` (the stock mysql2
 * instrumentation's masking). mysql2 writes every value into the text as an escaped literal (a
 * backslash before a quote, no raw line breaks), so each one is one match.
 */
export function maskedStatement(sql: string): string {
  return sql.replace(/\b\d+\b/g, '?').replace(/(["'])(?:(?=(\\?))\2.)*?\1/g, '?');
}

/**
 * A span per MySQL query, a child of the request's or job's span, from the tracing channels mysql2
 * publishes for APM tools (Node's diagnostics_channel; nothing of the driver is wrapped or replaced).
 * A query outside a sampled trace gets no span and costs one check; the stock instrumentation made,
 * masked and wrapped a span for every query, sampled or not, and a root trace for each background poll.
 *
 * The statement is masked (maskedStatement); an error keeps its code (ER_DUP_ENTRY), never its message,
 * which may quote a value.
 */
export function traceQueries(): void {
  for (const name of ['mysql2:query', 'mysql2:execute']) {
    tracingChannel<QueryMessage>(name).subscribe({
      start(message) {
        const parent = context.active();
        if (!trace.getSpan(parent)?.isRecording()) return;
        const sql = message.query ?? '';
        const operation = sql.trimStart().split(/\s/, 1)[0].toUpperCase();
        message.span = serviceTracer.startSpan(
          operation || 'query',
          {
            kind: SpanKind.CLIENT,
            attributes: {
              'db.system.name': 'mysql',
              'db.namespace': message.database,
              'db.operation.name': operation || undefined,
              'db.query.text': maskedStatement(sql),
              'server.address': message.serverAddress,
              'server.port': message.serverPort,
            },
          },
          parent,
        );
      },
      error(message) {
        const error = message.error as { code?: unknown } | undefined;
        message.span?.setAttribute('error.type', typeof error?.code === 'string' ? error.code : error instanceof Error ? error.constructor.name : 'error');
        message.span?.setStatus({ code: SpanStatusCode.ERROR });
      },
      // The answer is in: the callback that reads it is about to run.
      asyncStart(message) {
        message.span?.end();
      },
      end() {},
      asyncEnd() {},
    });
  }
}
