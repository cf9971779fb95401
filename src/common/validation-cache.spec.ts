import 'reflect-metadata';
import { Transform, Type, plainToInstance } from 'class-transformer';
import { IsOptional, IsString, ValidateNested, validateSync } from 'class-validator';
import { toDtoInstance } from './validation-cache';

class Flat {
  @IsString()
  name: string;

  @IsOptional()
  @IsString()
  note?: string;
}

class WithAccessor {
  @IsString()
  name: string;

  get shout(): string {
    return this.name.toUpperCase();
  }
}

class Numbered {
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? Number(value) : value))
  @IsOptional()
  count?: number;
}

class Inner {
  @IsString()
  label: string;
}

class Outer {
  @ValidateNested()
  @Type(() => Inner)
  inner: Inner;
}

/** A null-prototype record, as node's query parser makes them. */
function query(fields: Record<string, unknown>): object {
  return Object.assign(Object.create(null) as object, fields);
}

describe('toDtoInstance', () => {
  it('copies a flat input onto an instance of the class, as class-transformer does', () => {
    const input = query({ name: 'Ada', note: 'x', extra: '1' });
    const dto = toDtoInstance(Flat, input);
    expect(dto).toBeInstanceOf(Flat);
    expect({ ...dto }).toEqual({ name: 'Ada', note: 'x', extra: '1' });
    expect({ ...dto }).toEqual({ ...plainToInstance(Flat, input) });
  });

  it('skips __proto__, constructor, inherited methods and read-only accessors, as class-transformer does', () => {
    const input = JSON.parse('{"name":"a","__proto__":"p","constructor":"c","toString":"t","hasOwnProperty":"h","shout":"s"}') as object;
    const dto = toDtoInstance(WithAccessor, input);
    expect(Object.getPrototypeOf(dto)).toBe(WithAccessor.prototype);
    expect(Object.keys(dto)).toEqual(['name']);
    expect(Object.keys(plainToInstance(WithAccessor, input))).toEqual(['name']);
    expect(dto.shout).toBe('A');
  });

  it('keeps numbers, booleans and nulls as they are', () => {
    const dto = toDtoInstance(Flat, { name: 3, note: null, on: false });
    expect({ ...dto }).toEqual({ name: 3, note: null, on: false });
  });

  it('leaves a class with a @Transform to class-transformer', () => {
    const dto = toDtoInstance(Numbered, query({ count: '12' }));
    expect(dto.count).toBe(12);
  });

  it('leaves nested input to class-transformer (arrays, objects, @Type)', () => {
    const outer = toDtoInstance(Outer, { inner: { label: 'x' } });
    expect(outer.inner).toBeInstanceOf(Inner);
    const flat = toDtoInstance(Flat, { name: ['a', 'b'] });
    expect(flat.name).toEqual(['a', 'b']);
    expect(validateSync(flat).map((e) => e.property)).toEqual(['name']);
  });
});

describe('class-validator rule lookups', () => {
  it('answers with the rules added after a class was first validated', () => {
    class Late {
      @IsString()
      a: string;

      b: unknown;
    }
    expect(validateSync(toDtoInstance(Late, { a: 'x', b: 1 }), { whitelist: true, forbidNonWhitelisted: true }).map((e) => e.property)).toEqual(['b']);
    // A rule added afterwards (what a decorator does when a class is defined) is seen at once.
    IsString()(Late.prototype, 'b');
    expect(validateSync(toDtoInstance(Late, { a: 'x', b: 1 }), { whitelist: true, forbidNonWhitelisted: true }).map((e) => Object.keys(e.constraints ?? {}))).toEqual([['isString']]);
    expect(validateSync(toDtoInstance(Late, { a: 'x', b: 'y' }), { whitelist: true, forbidNonWhitelisted: true })).toEqual([]);
  });

  it('gives the same rules to every instance of a class, request after request', () => {
    for (let i = 0; i < 3; i++) {
      expect(validateSync(toDtoInstance(Flat, { name: 1 })).map((e) => Object.keys(e.constraints ?? {}))).toEqual([['isString']]);
      expect(validateSync(toDtoInstance(Flat, { name: 'ok' }))).toEqual([]);
    }
  });
});
