import { Module } from '@nestjs/common';
import { ConfigModule } from '../config/config.module';
import { VoiceConfig, readVoiceConfig } from './voice.config';
import { VoiceController } from './voice.controller';
import { VoiceService } from './voice.service';

/**
 * Voice interviews' speech servers (TRANSCRIBER, SPEAKER) and the read of which modes the service can
 * run. Interviews check a voice interview can run; the room records, transcribes and speaks through it.
 */
@Module({
  imports: [ConfigModule.forFeature(VoiceConfig, readVoiceConfig)],
  controllers: [VoiceController],
  providers: [VoiceService],
  exports: [VoiceService],
})
export class VoiceModule {}
