import { ApiProperty } from '@nestjs/swagger';

/** A product as the API returns it. */
export class ProductDto {
  @ApiProperty({ example: '019a8f7e-1c2b-7d3e-9f40-2b6c8d9e0a1b' })
  productID: string;

  @ApiProperty({ example: 'Acme Notes' })
  name: string;

  @ApiProperty({ type: String, nullable: true, example: 'A note-taking app for research teams.' })
  desc: string | null;

  @ApiProperty({ type: String, nullable: true, example: 'org_acme' })
  orgID: string | null;

  @ApiProperty({ type: String, nullable: true, example: 'user_42' })
  userID: string | null;

  @ApiProperty({ type: String, nullable: true, format: 'uri', example: 'https://acme.example/notes' })
  url: string | null;

  @ApiProperty({ type: String, nullable: true, format: 'uri', example: 'https://acme.example/notes.png' })
  imageLink: string | null;
}

export const PRODUCT_FIELDS = ['productID', 'name', 'desc', 'orgID', 'userID', 'url', 'imageLink'] as const;

export class ProductIdResultDto {
  @ApiProperty({ example: '019a8f7e-1c2b-7d3e-9f40-2b6c8d9e0a1b' })
  productID: string;
}

export class ProductUpdatedDto extends ProductIdResultDto {
  @ApiProperty({ example: 'updated', enum: ['updated'] })
  status: 'updated';
}
