import { IsNotEmpty, IsOptional, IsString, IsUrl, MaxLength } from 'class-validator';
import type { ProductDto } from '../../../src/products/dto/product.dto';

const HTTP_URL = { protocols: ['http', 'https'], require_protocol: true };

export class GetProductQuery {
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  productID: string;
}

export class ListProductsQuery {
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  orgID?: string;

  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  userID?: string;
}

export class CreateProductDto {
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  name: string;

  @IsOptional()
  @IsString()
  @MaxLength(10_000)
  desc?: string | null;

  @IsOptional()
  @IsString()
  @MaxLength(100)
  orgID?: string | null;

  @IsOptional()
  @IsString()
  @MaxLength(100)
  userID?: string | null;

  @IsOptional()
  @IsUrl(HTTP_URL)
  @MaxLength(2048)
  url?: string | null;

  @IsOptional()
  @IsUrl(HTTP_URL)
  @MaxLength(2048)
  imageLink?: string | null;
}

export class GetInviteQuery {
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  linkID: string;
}

export class ListInvitesQuery {
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  interviewID?: string;

  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  productID?: string;
}

/** A product as the API shows it: the service's shape, so that both answer the same JSON. */
export type ProductView = ProductDto;

/** An invite as the API shows it. */
export interface InviteView {
  linkID: string;
  interviewID: string;
  productID: string;
  orgID: string | null;
  userInfo: unknown;
  status: string;
  timestamp: string;
  completed_on: string | null;
  expires_on: string;
  conversation: unknown;
  source: string;
  participantID: string | null;
  segment: string | null;
  passthrough: Record<string, string> | null;
  screener: unknown[] | null;
  quality: unknown;
}
