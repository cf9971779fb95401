import type { ConfigType } from '@nestjs/config';
import { Injectable, Inject } from '@nestjs/common';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { metricsConfig } from './metrics.config';

/** What a gauge reads when it is scraped (from the database: the webhook backlog, the report queue). */
export type GaugeReader = (set: (value: number, labels?: Record<string, string>) => void) => Promise<void>;

const noop = (): void => undefined;

/** The histograms' buckets, in seconds. */
const BUCKETS = {
  /** Fine below 100 ms, where most answers are, up to the 10 s of the slowest waits. */
  request: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  /** From the built-in agent's few milliseconds to a slow model's minute. */
  turn: [0.01, 0.05, 0.1, 0.5, 1, 2.5, 5, 10, 30, 60],
  /** From a short question spoken to a long answer transcribed. */
  voiceCall: [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
};

/** What a webhook attempt came to: a 2xx, another answer, 410 Gone, or no answer at all. */
export type WebhookAttemptResult = 'delivered' | 'failed' | 'gone' | 'unreachable';

/**
 * The service's Prometheus metrics, from prom-client, in a registry of this app's own (the tests boot
 * several apps in one process; prom-client's global registry would refuse the second). Labels are
 * low-cardinality by construction: route templates, agent names from the configuration, statuses,
 * results and reasons from fixed lists; never a linkID, shareID, token or e-mail.
 *
 * Without METRICS_PORT nothing is recorded: each method is a no-op, so metrics cost nothing when off.
 */
@Injectable()
export class Metrics {
  readonly registry = new Registry();
  readonly enabled: boolean;
  /** METRICS_PORT, for the listener (MetricsServer); null: metrics are off. */
  readonly port: number | null;

  readonly requestDone: (method: string, route: string, status: number, seconds: number) => void = noop;
  readonly roomTurn: (agent: string) => void = noop;
  readonly agentTurn: (agent: string, seconds: number) => void = noop;
  readonly agentFallback: (agent: string, reason: string) => void = noop;
  readonly inviteTransition: (status: string, count?: number) => void = noop;
  readonly webhookAttempt: (result: WebhookAttemptResult) => void = noop;
  readonly rateLimitRefused: (bucket: string) => void = noop;
  /** A call to a speech server of voice interviews (the transcriber or the speaker), timed whatever its result. */
  readonly voiceCall: (service: 'transcriber' | 'speaker', seconds: number) => void = noop;
  readonly voiceFailure: (service: 'transcriber' | 'speaker', reason: string) => void = noop;

  constructor(@Inject(metricsConfig.KEY) config: ConfigType<typeof metricsConfig>) {
    this.port = config.port;
    this.enabled = config.port !== null;
    if (!this.enabled) return;
    collectDefaultMetrics({ register: this.registry });
    const registers = [this.registry];
    const counter = <T extends string>(name: string, help: string, labelNames: readonly T[]) => new Counter({ name, help, labelNames, registers });
    const histogram = <T extends string>(name: string, help: string, labelNames: readonly T[], buckets: number[]) => new Histogram({ name, help, labelNames, buckets, registers });
    const requests = histogram('http_request_duration_seconds', 'HTTP requests by method, route template and status code', ['method', 'route', 'status_code'], BUCKETS.request);
    const turns = counter('irs_room_turns_total', 'Interviewer turns taken in the interview room, by agent', ['agent']);
    const turnSeconds = histogram('irs_agent_turn_duration_seconds', "How long an interviewer agent took for a turn (the model's answer, or the fallback), by agent", ['agent'], BUCKETS.turn);
    const fallbacks = counter('irs_agent_fallbacks_total', 'Turns an LLM interviewer could not give, taken by the built-in agent instead, by agent and reason', ['agent', 'reason']);
    const invites = counter('irs_invite_transitions_total', 'Invites moved to a status', ['status']);
    const attempts = counter(
      'irs_webhook_attempts_total',
      'Webhook delivery attempts by result: delivered (2xx), failed (another answer), gone (410), unreachable (no answer)',
      ['result'],
    );
    const refusals = counter('irs_rate_limit_refusals_total', 'Requests refused with 429, by rate-limit bucket', ['bucket']);
    const voiceSeconds = histogram(
      'irs_voice_call_duration_seconds',
      'How long a speech server took for a call of voice interviews (a transcription, a spoken question), by service, whatever its result',
      ['service'],
      BUCKETS.voiceCall,
    );
    const voiceFailures = counter('irs_voice_failures_total', 'Calls to a speech server that gave nothing usable (the room answered 503), by service and reason', ['service', 'reason']);
    Object.assign(this, {
      requestDone: (method: string, route: string, status: number, seconds: number) => requests.observe({ method, route, status_code: String(status) }, seconds),
      roomTurn: (agent: string) => turns.inc({ agent }),
      agentTurn: (agent: string, seconds: number) => turnSeconds.observe({ agent }, seconds),
      agentFallback: (agent: string, reason: string) => fallbacks.inc({ agent, reason }),
      inviteTransition: (status: string, count = 1) => invites.inc({ status }, count),
      webhookAttempt: (result: string) => attempts.inc({ result }),
      rateLimitRefused: (bucket: string) => refusals.inc({ bucket }),
      voiceCall: (service: string, seconds: number) => voiceSeconds.observe({ service }, seconds),
      voiceFailure: (service: string, reason: string) => voiceFailures.inc({ service, reason }),
    });
  }

  /**
   * A gauge read when Prometheus scrapes (from the database, say): a feature registers it at start.
   * A reading that fails leaves the gauge without values rather than failing the scrape.
   */
  gauge(name: string, help: string, labelNames: readonly string[], read: GaugeReader): void {
    if (!this.enabled) return;
    new Gauge({
      name,
      help,
      labelNames,
      registers: [this.registry],
      async collect() {
        this.reset();
        try {
          await read((value, labels) => (labels ? this.set(labels, value) : this.set(value)));
        } catch {
          // The database is away: /health says so; the other metrics still scrape.
        }
      },
    });
  }
}
