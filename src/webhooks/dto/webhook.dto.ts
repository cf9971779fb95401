import { ApiExtraModels, ApiProperty, ApiPropertyOptions, getSchemaPath } from '@nestjs/swagger';
import { COMMON_LIMITS } from '../../common/limits';
import { INVITE_STATUSES } from '../../domain/invite-status';
import { INVITE_LIMITS } from '../../domain/invite.limits';
import { PROFILE_LIMITS } from '../../domain/profile.limits';
import { DELIVERY_STATUSES, DeliveryStatus, RETRY_SCHEDULE_SECONDS, WEBHOOK_EVENTS, WEBHOOK_LIMITS, WEBHOOK_STATUSES, WebhookEventType, WebhookStatus } from '../webhooks.limits';

const UUID = { maxLength: COMMON_LIMITS.uuid, format: 'uuid' } as const;
const TIME = { type: String, format: 'date-time', maxLength: 30 } as const;
/** Attempts per delivery: the schedule's, again after each redeliver (bounded for the OpenAPI document). */
const MAX_ATTEMPTS = 10_000;

export class WebhookCreatedDto {
  @ApiProperty({ ...UUID, example: '019a9b10-2c3d-7e4f-8a5b-6c7d8e9f0a1b' })
  webhookID: string;

  @ApiProperty({
    maxLength: WEBHOOK_LIMITS.secret,
    pattern: '^whsec_[A-Za-z0-9+/]+=*$',
    example: 'whsec_vE1mxq8kBLaUglMzXg6n5Hn9NDeK+PhF7HGeEa+rKvo=',
    description: 'The signing secret, shown only this once: `whsec_` + base64 of 32 random bytes. Give it to your Standard Webhooks library to verify deliveries.',
  })
  secret: string;
}

export class AttemptDto {
  @ApiProperty({ ...TIME, example: '2026-11-22T10:15:30.123Z' })
  attempted_on: string;

  @ApiProperty({ type: 'integer', format: 'int32', minimum: 100, maximum: 599, nullable: true, example: 200, description: 'The HTTP status the endpoint answered; null when it did not answer.' })
  statusCode: number | null;

  @ApiProperty({
    type: String,
    nullable: true,
    maxLength: WEBHOOK_LIMITS.error,
    example: null,
    description: 'Why the attempt failed when there is no status to say it: a timeout, a refused connection, a refused address; or that a redirect was not followed.',
  })
  error: string | null;

  @ApiProperty({ type: 'integer', format: 'int32', minimum: 0, maximum: 3_600_000, example: 41, description: 'From sending to the answer (or the failure), in milliseconds.' })
  durationMs: number;
}

/**
 * The endpoint's most recent attempt, or null before the first. Written inline rather than as a $ref:
 * OpenAPI 3.0 cannot make a $ref nullable (see USER_INFO_SCHEMA in invite.dto.ts).
 */
const LAST_DELIVERY_SCHEMA: ApiPropertyOptions = {
  type: 'object',
  nullable: true,
  description: 'The most recent delivery attempt to this endpoint: which delivery, and how it went. Null before the first.',
  // Always present (null or the object): `required` below lists the object's own fields, so say it of the property here.
  selfRequired: true,
  required: ['deliveryID', 'type', 'attempted_on', 'statusCode', 'error', 'durationMs'],
  properties: {
    deliveryID: { type: 'string', ...UUID, example: '019a9b12-0000-7000-8000-000000000001' },
    type: { type: 'string', enum: [...WEBHOOK_EVENTS], example: 'invite.completed' },
    attempted_on: { type: 'string', format: 'date-time', maxLength: 30, example: '2026-11-22T10:15:30.123Z' },
    statusCode: { type: 'integer', format: 'int32', minimum: 100, maximum: 599, nullable: true, example: 200 },
    error: { type: 'string', maxLength: WEBHOOK_LIMITS.error, nullable: true, example: null },
    durationMs: { type: 'integer', format: 'int32', minimum: 0, maximum: 3_600_000, example: 41 },
  },
};

export interface LastDeliveryDto extends AttemptDto {
  deliveryID: string;
  type: WebhookEventType;
}

export class WebhookDto {
  @ApiProperty({ ...UUID, example: '019a9b10-2c3d-7e4f-8a5b-6c7d8e9f0a1b' })
  webhookID: string;

  @ApiProperty({ format: 'uri', maxLength: WEBHOOK_LIMITS.url, example: 'https://hooks.acme.example/irs' })
  url: string;

  @ApiProperty({
    type: 'array',
    items: { type: 'string', enum: [...WEBHOOK_EVENTS] },
    minItems: 1,
    maxItems: WEBHOOK_EVENTS.length,
    example: [...WEBHOOK_EVENTS],
    description: 'The event types this endpoint receives (every type when it was registered without `events`).',
  })
  events: WebhookEventType[];

  @ApiProperty({ type: String, nullable: true, maxLength: COMMON_LIMITS.ownerId, example: 'org_acme' })
  orgID: string | null;

  @ApiProperty({ type: String, nullable: true, maxLength: COMMON_LIMITS.ownerId, example: null })
  userID: string | null;

  @ApiProperty({
    enum: WEBHOOK_STATUSES,
    example: 'active',
    description: 'active: events are delivered. disabled: the endpoint answered 410 Gone; nothing more is sent to it (register it again to resume).',
  })
  status: WebhookStatus;

  @ApiProperty({ type: String, nullable: true, maxLength: WEBHOOK_LIMITS.disabledReason, example: null, description: 'Why the endpoint was disabled.' })
  disabledReason: string | null;

  @ApiProperty({ ...TIME, nullable: true, example: null })
  disabled_on: string | null;

  @ApiProperty({ ...TIME, example: '2026-11-22T10:00:00.000Z' })
  created_on: string;

  @ApiProperty(LAST_DELIVERY_SCHEMA)
  lastDelivery: LastDeliveryDto | null;
}

export class InviteEventDataDto {
  @ApiProperty({ maxLength: INVITE_LIMITS.linkId, example: 'q3Vd9x_7mK2pLw8aZr0TbYc1uEfGhJn4' })
  linkID: string;

  @ApiProperty({ ...UUID, example: '019a8f80-5d6e-7f01-8a23-4b5c6d7e8f90' })
  interviewID: string;

  @ApiProperty({ ...UUID, example: '019a8f7e-1c2b-7d3e-9f40-2b6c8d9e0a1b' })
  productID: string;

  @ApiProperty({ type: String, nullable: true, maxLength: COMMON_LIMITS.ownerId, example: 'org_acme' })
  orgID: string | null;

  @ApiProperty({ enum: INVITE_STATUSES, example: 'completed', description: 'The status the invite changed to.' })
  status: string;

  @ApiProperty({ ...TIME, nullable: true, example: '2026-11-22T10:15:29.870Z' })
  completed_on: string | null;
}

export class ProfileEventDataDto {
  @ApiProperty({ ...UUID, example: '019a8f90-0a1b-7c2d-8e3f-405162738495' })
  profileID: string;

  @ApiProperty({
    type: 'array',
    items: { type: 'string', format: 'uuid', maxLength: COMMON_LIMITS.uuid },
    minItems: 1,
    maxItems: PROFILE_LIMITS.products,
    example: ['019a8f7e-1c2b-7d3e-9f40-2b6c8d9e0a1b'],
    description: "The profile's products that the endpoint's owner can see.",
  })
  productIDs: string[];
}

export class ReportEventDataDto {
  @ApiProperty({ ...UUID, example: '019a9c20-1a2b-7c3d-8e4f-5a6b7c8d9e0f' })
  reportID: string;

  @ApiProperty({ ...UUID, example: '019a8f80-5d6e-7f01-8a23-4b5c6d7e8f90' })
  interviewID: string;

  @ApiProperty({ ...UUID, example: '019a8f7e-1c2b-7d3e-9f40-2b6c8d9e0a1b' })
  productID: string;

  @ApiProperty({ enum: ['completed', 'failed'], example: 'completed', description: 'How the report ended: read it with reports/getOne.' })
  status: string;
}

export class ErasureEventDataDto {
  @ApiProperty({ ...UUID, example: '019a9d40-3b4c-7d5e-8f60-718293a4b5c6', description: 'The erasure, as participants/getErasures lists it.' })
  erasureID: string;

  @ApiProperty({ maxLength: 64, pattern: '^[0-9a-f]{64}$', example: 'b1c6a5d6a41b4b5e33c4e2f8a4a3b0e1f3e1d3f8c0a6a5e2b9d1c4f7e8a9b0c1', description: 'Lowercase hex SHA-256 of the address, trimmed and lower-cased: match it against your own copies.' })
  emailSha256: string;

  @ApiProperty({
    type: 'array',
    items: { type: 'string', maxLength: INVITE_LIMITS.linkId },
    maxItems: 1_000_000,
    example: ['q3Vd9x_7mK2pLw8aZr0TbYc1uEfGhJn4'],
    description: "The erased invites of products the endpoint's owner can see: erase your copies of their transcripts.",
  })
  linkIDs: string[];
}

/** What is POSTed to the endpoint (Standard Webhooks): a thin reference; read the record through the API for more. */
@ApiExtraModels(InviteEventDataDto, ProfileEventDataDto, ReportEventDataDto, ErasureEventDataDto)
export class WebhookPayloadDto {
  @ApiProperty({ enum: WEBHOOK_EVENTS, example: 'invite.completed' })
  type: WebhookEventType;

  @ApiProperty({ ...TIME, example: '2026-11-22T10:15:29.870Z', description: 'When the change happened.' })
  timestamp: string;

  @ApiProperty({
    oneOf: [
      { $ref: getSchemaPath(InviteEventDataDto) },
      { $ref: getSchemaPath(ProfileEventDataDto) },
      { $ref: getSchemaPath(ReportEventDataDto) },
      { $ref: getSchemaPath(ErasureEventDataDto) },
    ],
    description: 'invite.*: the invite; profile.*: the profile; report.completed: the report; participant.erased: the erasure (never the address).',
  })
  data: InviteEventDataDto | ProfileEventDataDto | ReportEventDataDto | ErasureEventDataDto;
}

export class DeliveryDto {
  @ApiProperty({ ...UUID, example: '019a9b12-0000-7000-8000-000000000001', description: 'Also the `webhook-id` header: the same on every attempt, so receivers dedupe by it.' })
  deliveryID: string;

  @ApiProperty({ ...UUID, example: '019a9b10-2c3d-7e4f-8a5b-6c7d8e9f0a1b' })
  webhookID: string;

  @ApiProperty({ enum: WEBHOOK_EVENTS, example: 'invite.completed' })
  type: WebhookEventType;

  @ApiProperty({
    enum: DELIVERY_STATUSES,
    example: 'delivered',
    description: `pending: not yet delivered, retried after ${RETRY_SCHEDULE_SECONDS.map(humanWait).join(', ')} (±10%). delivered: an attempt got a 2xx. failed: every attempt failed, or the endpoint was disabled.`,
  })
  status: DeliveryStatus;

  @ApiProperty({ ...TIME, example: '2026-11-22T10:15:29.870Z', description: 'When the event was written (the time of the change).' })
  created_on: string;

  @ApiProperty({ ...TIME, nullable: true, example: null, description: 'When the next attempt is due; null while one is being sent, and once delivered or failed.' })
  next_attempt_on: string | null;

  @ApiProperty({ type: [AttemptDto], maxItems: MAX_ATTEMPTS, description: 'Every attempt, oldest first.' })
  attempts: AttemptDto[];

  @ApiProperty({ type: WebhookPayloadDto, description: 'The body sent, byte for byte as signed.' })
  payload: WebhookPayloadDto;
}

export class WebhookDeletedDto {
  @ApiProperty({ ...UUID, example: '019a9b10-2c3d-7e4f-8a5b-6c7d8e9f0a1b' })
  webhookID: string;

  @ApiProperty({ enum: ['deleted'], example: 'deleted' })
  status: 'deleted';
}

export class RedeliveryDto {
  @ApiProperty({ ...UUID, example: '019a9b12-0000-7000-8000-000000000001' })
  deliveryID: string;

  @ApiProperty({ enum: ['pending'], example: 'pending', description: 'Queued again: due now, with the retry schedule from its start.' })
  status: 'pending';
}

function humanWait(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3600) return `${seconds / 60} min`;
  return `${seconds / 3600} h`;
}
