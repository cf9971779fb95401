import { applyDecorators } from '@nestjs/common';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsIn,
  IsInt,
  IsISO8601,
  IsNumber,
  IsOptional,
  IsString,
  Length,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';
import { COMMON_LIMITS } from '../../common/limits';
import { IsCleanText, OptionalText, RequiredText } from '../../common/validation';
import { HISTORY_TYPES, PROFILE_LIMITS, PROFILE_SOURCES } from '../../domain/profile.limits';

/**
 * The input of a domain write of a profile (profiles are read-only under /v1). Validated with the same
 * rules and messages as an HTTP body; see validateInput.
 */
export class NewProfileMetadata {
  @IsOptional()
  @IsIn(PROFILE_SOURCES)
  source?: string | null;

  @IsOptional()
  @IsISO8601({ strict: true })
  acquired_date?: string | null;

  @IsOptional()
  @IsISO8601({ strict: true })
  last_interviewed?: string | null;

  @IsOptional()
  @Min(0)
  @Max(PROFILE_LIMITS.interviewCount)
  @IsInt()
  interview_count?: number | null;

  @IsOptional()
  @Min(-1)
  @Max(1)
  @IsNumber({ allowNaN: false, allowInfinity: false })
  sentiment?: number | null;
}

function ListOfText(max: number): PropertyDecorator {
  return applyDecorators(
    IsOptional(),
    IsArray(),
    ArrayMaxSize(PROFILE_LIMITS.listItems),
    IsString({ each: true }),
    Length(1, max, { each: true, message: `each item of $property must be 1 to ${max} characters long` }),
    IsCleanText({ each: true }),
  );
}

export class NewProfileDetails {
  @OptionalText({ description: 'Occupation.', max: PROFILE_LIMITS.shortText })
  occupation?: string | null;

  @OptionalText({ description: 'Location.', max: PROFILE_LIMITS.shortText })
  location?: string | null;

  @OptionalText({ description: 'Background.', max: PROFILE_LIMITS.background })
  background?: string | null;

  @OptionalText({ description: 'How the person relates to the product.', max: PROFILE_LIMITS.productAlignment })
  productAlignment?: string | null;

  @ListOfText(PROFILE_LIMITS.shortText)
  key_values?: string[];

  @ListOfText(PROFILE_LIMITS.shortText)
  interests?: string[];
}

export class NewHistoryEntry {
  @IsIn(HISTORY_TYPES)
  type: string;

  @RequiredText({ description: 'The record of that type.', max: PROFILE_LIMITS.historyId })
  id: string;
}

export class NewProfileDto {
  @IsArray()
  @ArrayMinSize(1, { message: 'a profile needs at least one product' })
  @ArrayMaxSize(PROFILE_LIMITS.products)
  @IsString({ each: true })
  @Length(1, COMMON_LIMITS.uuid, { each: true })
  productIDs: string[];

  @OptionalText({ description: 'First name.', max: PROFILE_LIMITS.name })
  firstName?: string | null;

  @OptionalText({ description: 'Last name.', max: PROFILE_LIMITS.name })
  lastName?: string | null;

  @IsOptional()
  @ValidateNested()
  @Type(() => NewProfileMetadata)
  metadata?: NewProfileMetadata;

  @IsOptional()
  @ValidateNested()
  @Type(() => NewProfileDetails)
  details?: NewProfileDetails;

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(PROFILE_LIMITS.history)
  @ValidateNested({ each: true })
  @Type(() => NewHistoryEntry)
  history?: NewHistoryEntry[];
}
