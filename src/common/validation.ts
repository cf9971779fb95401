import { BadRequestException, ValidationError, ValidationPipe, ValidationPipeOptions, applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, plainToInstance } from 'class-transformer';
import {
  IsDefined,
  IsEmail,
  IsInt,
  Max,
  Min,
  IsOptional,
  IsString,
  Length,
  MaxLength,
  ValidateIf,
  ValidationOptions,
  ValidatorOptions,
  registerDecorator,
  validateSync,
} from 'class-validator';
import { isHttpUrl, isRedirectUrl } from './http-url';
import { COMMON_LIMITS } from './limits';

/**
 * One set of rules for every input: HTTP bodies and queries (Nest's ValidationPipe, APP_PIPE) and the
 * domain writes that do not come through HTTP (validateInput). Unknown fields are refused by name;
 * types and bounds are checked before any work, and the first problem of each field is reported.
 *
 * forbidUnknownValues is off: it refuses an instance of a class without rules even when nothing was
 * sent (NoParametersDto), while whitelist + forbidNonWhitelisted already refuse every field such a
 * class does not declare.
 */
const VALIDATOR_OPTIONS: ValidatorOptions = {
  whitelist: true,
  forbidNonWhitelisted: true,
  forbidUnknownValues: false,
  stopAtFirstError: true,
  validationError: { target: false, value: false },
};

/** The global pipe's options: class-transformer builds each DTO, class-validator checks it, one 400 names the fields. */
export const VALIDATION_PIPE_OPTIONS: ValidationPipeOptions = {
  ...VALIDATOR_OPTIONS,
  transform: true,
  exceptionFactory: (errors) => new BadRequestException(formatErrors(errors).join('; ')),
};

/** The global pipe (APP_PIPE): Nest's own ValidationPipe with the options above. */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe(VALIDATION_PIPE_OPTIONS);
}

/**
 * The query of a route that takes no parameters: every key is refused by name, like an unknown field
 * anywhere else.
 */
export class NoParametersDto {}

/**
 * Validates a domain write's input against its DTO class with the same rules and messages as an
 * HTTP body (400 naming the field). An instance of the class came through the global pipe, which
 * validated it already; anything else is converted and checked here.
 */
export function validateInput<T extends object>(cls: new () => T, input: T): T {
  if (input instanceof cls) return input;
  const instance = plainToInstance(cls, input);
  const errors = validateSync(instance, VALIDATOR_OPTIONS);
  if (errors.length > 0) throw new BadRequestException(formatErrors(errors).join('; '));
  return instance;
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

/**
 * An e-mail address. The clean-text check is registered, and so runs, first: validator's isEmail throws
 * on an unpaired surrogate instead of refusing it, which would answer 500, and the pipe stops at the
 * first failed rule.
 */
export function IsEmailAddress(): PropertyDecorator {
  return applyDecorators(IsCleanText(), IsEmail({}, { message: '$property must be an email address, like name@example.com' }));
}

/**
 * An e-mail address as a person types it: trimmed (spaces around an address are not part of it, and a
 * pasted address often carries them) before it is checked and stored; its case is kept.
 */
export function TrimmedEmailAddress(): PropertyDecorator {
  return applyDecorators(
    Transform(({ value }) => (typeof value === 'string' ? value.trim() : value)),
    IsEmailAddress(),
  );
}

/**
 * An identifier is compared exactly, so one that starts or ends with whitespace (any Unicode space, the
 * no-break space included) is refused rather than stored: `"orgB "` would be another organization to our
 * code, and the same one to a database that pads trailing spaces.
 */
export function IsTrimmedId(options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isTrimmedId',
      target: target.constructor,
      propertyName: propertyName as string,
      options: { message: '$property must not start or end with whitespace', ...options },
      validator: { validate: (value: unknown) => typeof value !== 'string' || !hasEdgeWhitespace(value) },
    });
}

/** True when the text starts or ends with whitespace: JavaScript's \s covers every Unicode space separator and the BOM. */
export function hasEdgeWhitespace(value: string): boolean {
  return /^\s|\s$/u.test(value);
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

/** Where the service sends a person: absolute https, no credentials (isRedirectUrl). */
export function IsRedirectUrl(options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isRedirectUrl',
      target: target.constructor,
      propertyName: propertyName as string,
      options: { message: '$property must be an absolute https URL without credentials (no user:password@)', ...options },
      validator: { validate: (value: unknown) => typeof value !== 'string' || isRedirectUrl(value) },
    });
}

export function IsHttpUrl(options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isHttpUrl',
      target: target.constructor,
      propertyName: propertyName as string,
      options: { message: '$property must be an absolute http(s) URL', ...options },
      validator: { validate: (value: unknown) => typeof value !== 'string' || isHttpUrl(value) },
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
  const max = COMMON_LIMITS.url;
  return applyDecorators(
    ApiPropertyOptional({ type: String, format: 'uri', pattern: '^https?://', nullable: true, description, example, maxLength: max }),
    IsOptional(),
    IsString(typeMessage),
    MaxLength(max, { message: `$property must be at most ${max} characters long` }),
    IsCleanText(),
    IsHttpUrl(),
  );
}

/** A required absolute http(s) URL. */
export function RequiredUrl(description: string, example: string): PropertyDecorator {
  const max = COMMON_LIMITS.url;
  return applyDecorators(
    ApiProperty({ type: String, format: 'uri', pattern: '^https?://', description, example, minLength: 1, maxLength: max }),
    IsDefined({ message: '$property is required' }),
    IsString(typeMessage),
    MaxLength(max, { message: `$property must be at most ${max} characters long` }),
    IsCleanText(),
    IsHttpUrl(),
  );
}

/**
 * A record identifier in a query or body: required, a single string. No example: Swagger UI would
 * pre-fill it, and an id that exists nowhere only answers 404; the description says where to get one.
 */
export function RequiredId(description: string): PropertyDecorator {
  return applyDecorators(RequiredText({ description, max: COMMON_LIMITS.idInput }), IsTrimmedId());
}

/**
 * An optional identifier used as a list filter (orgID, userID, productID...). No example: Swagger UI
 * would pre-fill it, and a filter someone did not choose narrows their answer to nothing.
 */
export function OptionalId(description: string, max: number = COMMON_LIMITS.idInput): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({ type: String, description, minLength: 1, maxLength: max }),
    IsOptional(),
    IsString({ message: '$property must be a string, given once' }),
    Length(1, max, { message: `$property must be 1 to ${max} characters long` }),
    IsCleanText(),
    IsTrimmedId(),
  );
}

/**
 * The owner of a record in a body (orgID, userID): optional, null clears it (where the resource allows),
 * refused with whitespace at either end like every identifier.
 */
export function OptionalOwnerId(description: string, example: string): PropertyDecorator {
  return applyDecorators(OptionalText({ description, example, max: COMMON_LIMITS.ownerId }), IsTrimmedId());
}

/** An optional whole number from the query string, `minimum` (1 unless said) to `maximum` (no example: see OptionalId). */
export function OptionalQueryInt(description: string, maximum: number, minimum = 1): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({ type: 'integer', format: 'int32', description, minimum, maximum }),
    Transform(({ value }) => (typeof value === 'string' && /^\d{1,9}$/.test(value) ? Number(value) : value)),
    IsOptional(),
    // applyDecorators applies these in the order listed, and class-validator checks them in the order they
    // were applied, stopping at the first error: the type first, then the range. (Stacked decorators are
    // applied bottom-up, which is why a class's own IsInt is written below its Min and Max.)
    IsInt({ message: '$property must be a whole number' }),
    Min(minimum, { message: `$property must be from ${minimum} to ${maximum}` }),
    Max(maximum, { message: `$property must be from ${minimum} to ${maximum}` }),
  );
}

/** A whole number from the query string. "12" becomes 12; "1.5", "1e3", "abc", arrays stay as they are and fail. */
export function QueryInt(description: string, example: number, maximum: number): PropertyDecorator {
  return applyDecorators(
    ApiProperty({ type: 'integer', format: 'int32', description, example, minimum: 1, maximum }),
    Transform(({ value }) => (typeof value === 'string' && /^\d{1,9}$/.test(value) ? Number(value) : value)),
    IsDefined({ message: '$property is required' }),
    IsInt({ message: '$property must be a whole number' }),
  );
}
