import { ApiProperty } from '@nestjs/swagger';
import { COMMON_LIMITS } from '../../common/limits';
import { InviteDto } from '../../invites/dto/invite.dto';
import { ProfileDto } from '../../profiles/dto/profile.dto';
import { PARTICIPANT_LIMITS } from '../participants.limits';

const COUNT = { type: 'integer', format: 'int32', minimum: 0, maximum: 2_147_483_647 } as const;
const ERASURE_ID = { maxLength: COMMON_LIMITS.uuid, format: 'uuid', example: '019a9d40-3b4c-7d5e-8f60-718293a4b5c6' } as const;
const SHA = {
  maxLength: 64,
  pattern: '^[0-9a-f]{64}$',
  example: 'b1c6a5d6a41b4b5e33c4e2f8a4a3b0e1f3e1d3f8c0a6a5e2b9d1c4f7e8a9b0c1',
  description: 'Lowercase hex SHA-256 of the address, trimmed and lower-cased; the address itself is never kept.',
} as const;

export class ErasureResultDto {
  @ApiProperty(ERASURE_ID)
  erasureID: string;

  @ApiProperty({ ...COUNT, example: 2, description: 'Invites whose userInfo and transcript were cleared.' })
  invites: number;

  @ApiProperty({ ...COUNT, example: 1, description: 'Profiles deleted.' })
  profiles: number;

  @ApiProperty({ ...COUNT, example: 1, description: 'Stored reports that quoted the person and no longer do.' })
  reports: number;
}

export class ErasureDto extends ErasureResultDto {
  @ApiProperty({ type: String, format: 'date-time', maxLength: 30, example: '2026-11-24T09:30:00.123Z' })
  at: string;

  @ApiProperty({ maxLength: PARTICIPANT_LIMITS.by, example: 'privacy desk', description: 'The name of the token that asked (its id when it has none), or "retention" for the retention sweep.' })
  by: string;

  @ApiProperty(SHA)
  emailSha256: string;
}

export class PersonExportDto {
  @ApiProperty({ type: String, format: 'email', maxLength: PARTICIPANT_LIMITS.email, example: 'ada@example.com', description: 'The address asked for, as sent.' })
  email: string;

  @ApiProperty({ type: [InviteDto], maxItems: PARTICIPANT_LIMITS.exportInvites, description: 'Every invite of the person within the owner, oldest first, as invites/getOne shows it.' })
  invites: InviteDto[];

  @ApiProperty({ type: [ProfileDto], maxItems: 1, description: "The person's profile within the owner (at most one), as profiles/getOne shows it." })
  profiles: ProfileDto[];
}
