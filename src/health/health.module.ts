import { Module } from '@nestjs/common';
import { HealthController } from './health.controller';
import { ServingState } from './serving-state';

@Module({ controllers: [HealthController], providers: [ServingState], exports: [ServingState] })
export class HealthModule {}
