import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsOptional } from 'class-validator';
import { COMMON_LIMITS } from '../../common/limits';
import { RequiredId } from '../../common/validation';

const CASCADE =
  'true: delete everything that belongs to it as well (invites with their transcripts, reports with their share links; the product leaves ' +
  "profiles' productIDs and a profile left without products is deleted). Absent or false: 409 when there is anything to delete with it.";

export class DeleteInterviewDto {
  @RequiredId('The interview to delete (404 when unknown or not visible). An interviewID from interviews/addOne or interviews/getList.')
  interviewID: string;

  @ApiPropertyOptional({ type: Boolean, default: false, description: CASCADE })
  @IsOptional()
  @IsBoolean({ message: 'cascade must be true or false' })
  cascade?: boolean;
}

export class DeleteProductDto {
  @RequiredId('The product to delete (404 when unknown or not visible). A productID from products/addOne or products/getList.')
  productID: string;

  @ApiPropertyOptional({ type: Boolean, default: false, description: CASCADE })
  @IsOptional()
  @IsBoolean({ message: 'cascade must be true or false' })
  cascade?: boolean;
}

const COUNT = { type: 'integer', format: 'int32', minimum: 0, maximum: 2_147_483_647 } as const;

class DeletedCounts {
  @ApiProperty({ enum: ['deleted'], example: 'deleted' })
  status: 'deleted';

  @ApiProperty({ ...COUNT, example: 12, description: 'Invites deleted, with their transcripts.' })
  invites: number;

  @ApiProperty({ ...COUNT, example: 1, description: 'Reports deleted, with their share links.' })
  reports: number;

  @ApiProperty({ ...COUNT, example: 0, description: 'Profiles deleted because they were left without a product.' })
  profiles: number;
}

export class InterviewDeletedDto extends DeletedCounts {
  @ApiProperty({ maxLength: COMMON_LIMITS.uuid, format: 'uuid', example: '019a8f80-5d6e-7f01-8a23-4b5c6d7e8f90' })
  interviewID: string;
}

export class ProductDeletedDto extends DeletedCounts {
  @ApiProperty({ maxLength: COMMON_LIMITS.uuid, format: 'uuid', example: '019a8f7e-1c2b-7d3e-9f40-2b6c8d9e0a1b' })
  productID: string;
}
