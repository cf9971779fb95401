import { DynamicModule, Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import type { AppConfig } from '../config/app-config';
import { CoreModule } from '../core.module';
import { InterviewsModule } from '../interviews/interviews.module';
import { InvitesModule } from '../invites/invites.module';
import { ProductsModule } from '../products/products.module';
import { ProfilesModule } from '../profiles/profiles.module';
import { RoomModule } from '../room/room.module';
import { SeedService } from './seed.service';

/** The demo-data command's own application context: the domain code, without the HTTP service. */
@Module({
  imports: [AuthModule, ProductsModule, InterviewsModule, InvitesModule, ProfilesModule, RoomModule],
  providers: [SeedService],
  exports: [SeedService],
})
export class SeedModule {
  static forRoot(config: AppConfig): DynamicModule {
    return { module: SeedModule, imports: [CoreModule.forRoot(config)] };
  }
}
