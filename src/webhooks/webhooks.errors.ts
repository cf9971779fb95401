import { BadRequestException, ConflictException } from '@nestjs/common';
import { RecordNotFoundException } from '../common/errors';

export class WebhookNotFoundException extends RecordNotFoundException {
  constructor(webhookID: string) {
    super('webhook', webhookID);
  }
}

export class DeliveryNotFoundException extends RecordNotFoundException {
  constructor(deliveryID: string) {
    super('delivery', deliveryID);
  }
}

/** A target the service will not send to (https only; public addresses only): see webhook-targets.ts. */
export class WebhookTargetRefusedException extends BadRequestException {
  constructor(reason: string) {
    super(`url is refused: ${reason}`);
  }
}

/** redeliver to an endpoint that answered 410 Gone. */
export class WebhookDisabledException extends ConflictException {
  constructor() {
    super('this webhook is disabled (its endpoint answered 410 Gone); register the endpoint again with addOne to receive events');
  }
}

/** redeliver while an instance is sending that delivery. */
export class DeliveryInProgressException extends ConflictException {
  constructor() {
    super('this delivery is being sent right now; look at its attempts in a moment');
  }
}
