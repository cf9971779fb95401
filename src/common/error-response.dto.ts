import { ApiProperty } from '@nestjs/swagger';

/** The body of every error response. `error` equals the HTTP status code. */
export class ErrorResponseDto {
  @ApiProperty({ type: 'integer', example: 404, description: 'Equals the HTTP status code' })
  error: number;

  @ApiProperty({ example: 'product not found', description: 'Readable description of what went wrong' })
  message: string;
}
