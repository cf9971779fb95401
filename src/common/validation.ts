import { BadRequestException, ValidationError, ValidationPipe, applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  IsDefined,
  IsInt,
  IsOptional,
  IsString,
  Length,
  MaxLength,
  ValidateIf,
  ValidationOptions,
  registerDecorator,
} from 'class-validator';


/** Global validation: unknown fields are refused by name, types and bounds checked before any work. */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    transform: true,
    stopAtFirstError: true,
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => new BadRequestException(formatErrors(errors).join('; ')),
  });
}

export function formatErrors(errors: ValidationError[], parent = ''): string[] {
  const out: string[] = [];
  for (const e of errors) {
    const path = parent ? `${parent}.${e.property}` : e.property;
    if (e.constraints) {
      for (const [rule, text] of Object.entries(e.constraints)) {
        out.push(rule === 'whitelistValidation' ? `unknown field "${path}" is not allowed` : text.replace(e.property, path));
      }
    }
    if (e.children?.length) out.push(...formatErrors(e.children, path));
  }
  return out;
}

/** No NUL characters and no unpaired UTF-16 surrogates: everything else is data. */
export function IsCleanText(options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isCleanText',
      target: target.constructor,
      propertyName: propertyName as string,
      options: { message: '$property must not contain NUL characters or unpaired surrogates', ...options },
      validator: {
        validate: (value: unknown) => typeof value !== 'string' || (!value.includes('\0') && value.isWellFormed()),
      },
    });
}

export function IsNotBlank(options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isNotBlank',
      target: target.constructor,
      propertyName: propertyName as string,
      options: { message: '$property must contain a non-whitespace character', ...options },
      validator: { validate: (value: unknown) => typeof value !== 'string' || /\S/.test(value) },
    });
}

export function IsHttpUrl(options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isHttpUrl',
      target: target.constructor,
      propertyName: propertyName as string,
      options: { message: '$property must be an absolute http(s) URL', ...options },
      validator: {
        validate: (value: unknown) => {
          if (typeof value !== 'string') return true;
          if (/\s/.test(value)) return false;
          try {
            const url = new URL(value);
            return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0;
          } catch {
            return false;
          }
        },
      },
    });
}

interface FieldOptions {
  description: string;
  example?: unknown;
  /** Maximum length in UTF-16 code units (what JavaScript's string length counts). */
  max: number;
  /** Must contain a non-whitespace character. */
  notBlank?: boolean;
}

const typeMessage = { message: '$property must be a string' };

/** A required string: missing or null is 400. */
export function RequiredText(o: FieldOptions): PropertyDecorator {
  return applyDecorators(
    ApiProperty({ type: String, description: o.description, example: o.example, minLength: 1, maxLength: o.max }),
    IsDefined({ message: '$property is required' }),
    IsString(typeMessage),
    Length(1, o.max, { message: `$property must be 1 to ${o.max} characters long` }),
    IsCleanText(),
    ...(o.notBlank ? [IsNotBlank()] : []),
  );
}

/** An optional string: absent leaves it as it is, null clears it (stored as null). */
export function OptionalText(o: FieldOptions): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({ type: String, nullable: true, description: o.description, example: o.example, maxLength: o.max }),
    IsOptional(),
    IsString(typeMessage),
    MaxLength(o.max, { message: `$property must be at most ${o.max} characters long` }),
    IsCleanText(),
  );
}

/** Required on create, optional on update: absent leaves it, null is refused. */
export function PatchRequiredText(o: FieldOptions): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({ type: String, description: `${o.description} Cannot be null.`, example: o.example, minLength: 1, maxLength: o.max }),
    ValidateIf((_obj: object, value: unknown) => value !== undefined),
    IsString({ message: '$property must be a string (it cannot be cleared)' }),
    Length(1, o.max, { message: `$property must be 1 to ${o.max} characters long` }),
    IsCleanText(),
    ...(o.notBlank ? [IsNotBlank()] : []),
  );
}

/** An absolute http(s) URL; null clears it. */
export function OptionalUrl(description: string, example: string): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({ type: String, format: 'uri', nullable: true, description, example, maxLength: 2048 }),
    IsOptional(),
    IsString(typeMessage),
    MaxLength(2048, { message: '$property must be at most 2048 characters long' }),
    IsCleanText(),
    IsHttpUrl(),
  );
}

export const ID_MAX = 64;

/** A record identifier in a query or body: required, a single string. */
export function RequiredId(description: string, example: string): PropertyDecorator {
  return RequiredText({ description, example, max: ID_MAX });
}

/** An optional identifier used as a list filter (orgID, userID, productID...). */
export function OptionalId(description: string, example: string, max = ID_MAX): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({ type: String, description, example, minLength: 1, maxLength: max }),
    IsOptional(),
    IsString({ message: '$property must be a string, given once' }),
    Length(1, max, { message: `$property must be 1 to ${max} characters long` }),
    IsCleanText(),
  );
}

/** A whole number from the query string. "12" becomes 12; "1.5", "1e3", "abc", arrays stay as they are and fail. */
export function QueryInt(description: string, example: number): PropertyDecorator {
  return applyDecorators(
    ApiProperty({ type: 'integer', format: 'int32', description, example, minimum: 1, maximum: 10_000 }),
    Transform(({ value }) => (typeof value === 'string' && /^\d{1,9}$/.test(value) ? Number(value) : value)),
    IsDefined({ message: '$property is required' }),
    IsInt({ message: '$property must be a whole number' }),
  );
}
