import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';

export const PAGE_MAX = 1000;
const CURSOR_MAX = 400;

/** Optional paging of every getList: without limit and cursor the whole list comes back, as the spec says. */
export class PageQueryDto {
  @ApiPropertyOptional({
    type: 'integer',
    format: 'int32',
    minimum: 1,
    maximum: PAGE_MAX,
    description: 'Page size. When more rows remain, the response carries `Link: <...>; rel="next"` with the next page\'s URL.',
  })
  @Transform(({ value }) => (typeof value === 'string' && /^\d{1,9}$/.test(value) ? Number(value) : value))
  @IsOptional()
  @Min(1, { message: `limit must be from 1 to ${PAGE_MAX}` })
  @Max(PAGE_MAX, { message: `limit must be from 1 to ${PAGE_MAX}` })
  // Listed last because class-validator runs decorators bottom-up and stops at the first error.
  @IsInt({ message: 'limit must be a whole number' })
  limit?: number;

  @ApiPropertyOptional({ maxLength: CURSOR_MAX, pattern: '^[A-Za-z0-9_-]+$', description: 'Opaque position from a previous page\'s Link header: the page starts after it.' })
  @IsOptional()
  @IsString({ message: 'cursor must be a string, given once' })
  @MaxLength(CURSOR_MAX, { message: 'cursor is not valid' })
  @Matches(/^[A-Za-z0-9_-]+$/, { message: 'cursor is not valid' })
  cursor?: string;
}
