import { Global, Module } from '@nestjs/common';
import { Background } from './background';

/**
 * The background component, for every process (CoreModule): features wake their loops through it by
 * name. Which loops exist, and when they start and stop, is BackgroundModule's (the HTTP service's).
 */
@Global()
@Module({ providers: [Background], exports: [Background] })
export class BackgroundComponentModule {}
