import { Module } from '@nestjs/common';
import { VoiceController } from './voice.controller';
import { VoiceService } from './voice.service';

/**
 * Voice interviews' speech servers (TRANSCRIBER, SPEAKER) and the read of which modes the service can
 * run. Interviews check a voice interview can run; the room records, transcribes and speaks through it.
 */
@Module({
  controllers: [VoiceController],
  providers: [VoiceService],
  exports: [VoiceService],
})
export class VoiceModule {}
