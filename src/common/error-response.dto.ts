import { ApiProperty } from '@nestjs/swagger';

/** The body of every error response. `error` equals the HTTP status code. */
export class ErrorResponseDto {
  @ApiProperty({ type: 'integer', format: 'int32', minimum: 400, maximum: 599, description: 'Equals the HTTP status code' })
  error: number;

  @ApiProperty({ maxLength: 1000, description: 'Readable description of what went wrong' })
  message: string;
}
