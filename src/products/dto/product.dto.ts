import { ApiProperty } from '@nestjs/swagger';
import { COMMON_LIMITS } from '../../common/limits';
import { PRODUCT_LIMITS } from '../product.limits';

/** A product as the API returns it. */
export class ProductDto {
  @ApiProperty({ maxLength: COMMON_LIMITS.uuid, format: 'uuid', example: '019a8f7e-1c2b-7d3e-9f40-2b6c8d9e0a1b' })
  productID: string;

  @ApiProperty({ maxLength: PRODUCT_LIMITS.name, example: 'Acme Notes' })
  name: string;

  @ApiProperty({ type: String, nullable: true, maxLength: PRODUCT_LIMITS.desc, example: 'A note-taking app for research teams.' })
  desc: string | null;

  @ApiProperty({ type: String, nullable: true, maxLength: COMMON_LIMITS.ownerId, example: 'org_acme' })
  orgID: string | null;

  @ApiProperty({ type: String, nullable: true, maxLength: COMMON_LIMITS.ownerId, example: 'user_42' })
  userID: string | null;

  @ApiProperty({ type: String, nullable: true, format: 'uri', maxLength: COMMON_LIMITS.url, example: 'https://acme.example/notes' })
  url: string | null;

  @ApiProperty({ type: String, nullable: true, format: 'uri', maxLength: COMMON_LIMITS.url, example: 'https://acme.example/notes.png' })
  imageLink: string | null;
}

export class ProductIdResultDto {
  @ApiProperty({ maxLength: COMMON_LIMITS.uuid, format: 'uuid', example: '019a8f7e-1c2b-7d3e-9f40-2b6c8d9e0a1b' })
  productID: string;
}

export class ProductUpdatedDto extends ProductIdResultDto {
  @ApiProperty({ example: 'updated', enum: ['updated'] })
  status: 'updated';
}
