import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { InvitesModule } from '../invites/invites.module';
import { ProfilesModule } from '../profiles/profiles.module';
import { SeedService } from './seed.service';

@Module({
  imports: [AuthModule, InvitesModule, ProfilesModule],
  providers: [SeedService],
  exports: [SeedService],
})
export class SeedModule {}
