import { ApiProperty } from '@nestjs/swagger';

/** A product as the API returns it. */
export class ProductDto {
  @ApiProperty({ maxLength: 36, format: 'uuid', example: '019a8f7e-1c2b-7d3e-9f40-2b6c8d9e0a1b' })
  productID: string;

  @ApiProperty({ maxLength: 200, example: 'Acme Notes' })
  name: string;

  @ApiProperty({ type: String, nullable: true, maxLength: 10000, example: 'A note-taking app for research teams.' })
  desc: string | null;

  @ApiProperty({ type: String, nullable: true, maxLength: 100, example: 'org_acme' })
  orgID: string | null;

  @ApiProperty({ type: String, nullable: true, maxLength: 100, example: 'user_42' })
  userID: string | null;

  @ApiProperty({ type: String, nullable: true, format: 'uri', maxLength: 2048, example: 'https://acme.example/notes' })
  url: string | null;

  @ApiProperty({ type: String, nullable: true, format: 'uri', maxLength: 2048, example: 'https://acme.example/notes.png' })
  imageLink: string | null;
}

export class ProductIdResultDto {
  @ApiProperty({ maxLength: 36, format: 'uuid', example: '019a8f7e-1c2b-7d3e-9f40-2b6c8d9e0a1b' })
  productID: string;
}

export class ProductUpdatedDto extends ProductIdResultDto {
  @ApiProperty({ example: 'updated', enum: ['updated'] })
  status: 'updated';
}
