import { Global, Module } from '@nestjs/common';
import { AccessService } from './access.service';

/** Global: every resource module asks AccessService who may see what. */
@Global()
@Module({
  providers: [AccessService],
  exports: [AccessService],
})
export class AccessModule {}
