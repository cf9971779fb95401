import { ApiProperty } from '@nestjs/swagger';
import { HISTORY_TYPES, PROFILE_LIMITS, PROFILE_SOURCES } from '../../domain/profile.limits';

export class ProfileMetadataDto {
  @ApiProperty({ type: String, nullable: true, enum: PROFILE_SOURCES, example: 'interview', description: 'How the profile was acquired.' })
  source: string | null;

  @ApiProperty({ type: String, format: 'date-time', maxLength: 30, nullable: true, example: '2026-10-02T09:15:00.000Z' })
  acquired_date: string | null;

  @ApiProperty({ type: String, format: 'date-time', maxLength: 30, nullable: true, example: '2026-11-20T16:40:12.345Z' })
  last_interviewed: string | null;

  @ApiProperty({ type: 'integer', format: 'int32', nullable: true, example: 3, minimum: 0, maximum: PROFILE_LIMITS.interviewCount })
  interview_count: number | null;

  @ApiProperty({ type: Number, nullable: true, example: 0.42, minimum: -1, maximum: 1, description: 'From -1 (negative) to 1 (positive).' })
  sentiment: number | null;
}

export class ProfileDetailsDto {
  @ApiProperty({ type: String, nullable: true, maxLength: PROFILE_LIMITS.shortText, example: 'Product manager' })
  occupation: string | null;

  @ApiProperty({ type: String, nullable: true, maxLength: PROFILE_LIMITS.shortText, example: 'Lisbon, Portugal' })
  location: string | null;

  @ApiProperty({ type: String, nullable: true, maxLength: PROFILE_LIMITS.background, example: 'Ten years in B2B SaaS, moved from engineering into product.' })
  background: string | null;

  @ApiProperty({ type: String, nullable: true, maxLength: PROFILE_LIMITS.productAlignment, example: 'Uses the product daily for sprint planning.' })
  productAlignment: string | null;

  @ApiProperty({ type: 'array', items: { type: 'string', maxLength: PROFILE_LIMITS.shortText }, maxItems: PROFILE_LIMITS.listItems, example: ['speed', 'clarity'] })
  key_values: string[];

  @ApiProperty({ type: 'array', items: { type: 'string', maxLength: PROFILE_LIMITS.shortText }, maxItems: PROFILE_LIMITS.listItems, example: ['climbing', 'board games'] })
  interests: string[];
}

export class HistoryEntryDto {
  @ApiProperty({ enum: HISTORY_TYPES, example: 'invite' })
  type: string;

  @ApiProperty({ maxLength: PROFILE_LIMITS.historyId, example: 'q3Vd9x_7mK2pLw8aZr0TbYc1uEfGhJn4', description: 'Identifier of the record of that type.' })
  id: string;
}

export class ProfileDto {
  @ApiProperty({ maxLength: 36, format: 'uuid', example: '019a8f90-0a1b-7c2d-8e3f-405162738495' })
  profileID: string;

  @ApiProperty({ type: 'array', items: { type: 'string', format: 'uuid', maxLength: 36 }, maxItems: PROFILE_LIMITS.products, example: ['019a8f7e-1c2b-7d3e-9f40-2b6c8d9e0a1b'], description: 'The products of this profile that the caller can see.' })
  productIDs: string[];

  @ApiProperty({ type: String, nullable: true, maxLength: PROFILE_LIMITS.name, example: 'Ada' })
  firstName: string | null;

  @ApiProperty({ type: String, nullable: true, maxLength: PROFILE_LIMITS.name, example: 'Lovelace' })
  lastName: string | null;

  @ApiProperty({ type: ProfileMetadataDto })
  metadata: ProfileMetadataDto;

  @ApiProperty({ type: ProfileDetailsDto })
  details: ProfileDetailsDto;

  @ApiProperty({ type: [HistoryEntryDto], maxItems: PROFILE_LIMITS.history })
  history: HistoryEntryDto[];
}
