import { ArgumentMetadata, BadRequestException, ValidationPipe } from '@nestjs/common';
import { CreateProductDto } from '../products/dto/create-product.dto';
import { GetProductQueryDto } from '../products/dto/product-queries.dto';
import { CreateInvitesQueryDto } from '../invites/dto/invite-queries.dto';
import { PageQueryDto } from './page-query.dto';
import { NoParametersDto, createValidationPipe } from './validation';

const BODY: ArgumentMetadata = { type: 'body', metatype: CreateProductDto };
const QUERY: ArgumentMetadata = { type: 'query', metatype: GetProductQueryDto };

/** The message of the BadRequestException the pipe rejects with. */
async function messageOf(promise: Promise<unknown>): Promise<string> {
  const error: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(BadRequestException);
  return ((error as BadRequestException).getResponse() as { message: string }).message;
}

describe('the global ValidationPipe (createValidationPipe)', () => {
  let sut: ValidationPipe;

  beforeEach(() => {
    sut = createValidationPipe();
  });

  function body(plain: Record<string, unknown>): Promise<unknown> {
    return sut.transform(plain, BODY);
  }

  describe('CreateProductDto body', () => {
    it('accepts a valid body and returns a CreateProductDto instance', async () => {
      const plain = { name: 'Acme Notes', desc: 'Notes', orgID: 'org_acme', userID: 'user_42', url: 'https://acme.example/notes', imageLink: 'http://acme.example/n.png' };

      const result = await body(plain);

      expect(result).toBeInstanceOf(CreateProductDto);
      expect(result).toEqual(plain);
    });

    it('rejects an unknown field, naming it', async () => {
      await expect(body({ name: 'Acme', colour: 'red' })).rejects.toThrow(BadRequestException);
      await expect(messageOf(body({ name: 'Acme', colour: 'red' }))).resolves.toBe('unknown field "colour" is not allowed');
    });

    it('rejects a non-string name with "name must be a string"', async () => {
      await expect(body({ name: 5 })).rejects.toThrow(BadRequestException);
      await expect(messageOf(body({ name: 5 }))).resolves.toBe('name must be a string');
    });

    it('rejects a missing or null name as required', async () => {
      await expect(messageOf(body({}))).resolves.toBe('name is required');
      await expect(messageOf(body({ name: null }))).resolves.toBe('name is required');
    });

    it('rejects a whitespace-only name', async () => {
      await expect(body({ name: '   ' })).rejects.toThrow(BadRequestException);
      await expect(messageOf(body({ name: '   ' }))).resolves.toBe('name must contain a non-whitespace character');
    });

    it('rejects an empty name', async () => {
      await expect(messageOf(body({ name: '' }))).resolves.toBe('name must be 1 to 200 characters long');
    });

    it('accepts a name of 200 characters and rejects one of 201', async () => {
      await expect(body({ name: 'x'.repeat(200) })).resolves.toBeInstanceOf(CreateProductDto);
      await expect(body({ name: 'x'.repeat(201) })).rejects.toThrow(BadRequestException);
      await expect(messageOf(body({ name: 'x'.repeat(201) }))).resolves.toBe('name must be 1 to 200 characters long');
    });

    it('rejects a name containing a NUL character', async () => {
      await expect(body({ name: 'Acme\u0000Notes' })).rejects.toThrow(BadRequestException);
      await expect(messageOf(body({ name: 'Acme\u0000Notes' }))).resolves.toBe('name must not contain NUL characters or unpaired surrogates');
    });

    it('rejects a name containing a lone surrogate', async () => {
      await expect(body({ name: 'Acme \uD800' })).rejects.toThrow(BadRequestException);
      await expect(messageOf(body({ name: '\uDC00Acme' }))).resolves.toBe('name must not contain NUL characters or unpaired surrogates');
    });

    it.each(['Acme 😀', 'שלום', '日本語のメモ', 'Crème brûlée'])('accepts the name %p', async (name) => {
      await expect(body({ name })).resolves.toMatchObject({ name });
    });

    it('checks optional text fields the same way', async () => {
      await expect(messageOf(body({ name: 'Acme', desc: 5 }))).resolves.toBe('desc must be a string');
      await expect(messageOf(body({ name: 'Acme', orgID: 'o\u0000' }))).resolves.toBe('orgID must not contain NUL characters or unpaired surrogates');
      await expect(messageOf(body({ name: 'Acme', userID: 'u'.repeat(101) }))).resolves.toBe('userID must be at most 100 characters long');
    });

    it.each(['ftp://x', 'not a url', 'https://', 'https://exa mple.com', '/relative/path', 'javascript:alert(1)'])('rejects the url %p', async (url) => {
      await expect(body({ name: 'Acme', url })).rejects.toThrow(BadRequestException);
      await expect(messageOf(body({ name: 'Acme', url }))).resolves.toBe('url must be an absolute http(s) URL');
    });

    it('accepts an http(s) url with path and query', async () => {
      await expect(body({ name: 'Acme', url: 'https://example.com/a?b=c' })).resolves.toMatchObject({ url: 'https://example.com/a?b=c' });
    });

    it('accepts null for url and desc (clears them)', async () => {
      const result = await body({ name: 'Acme', url: null, imageLink: null, desc: null });

      expect(result).toBeInstanceOf(CreateProductDto);
      expect(result).toMatchObject({ name: 'Acme', url: null, imageLink: null, desc: null });
    });

    it('applies the url rule to imageLink too', async () => {
      await expect(messageOf(body({ name: 'Acme', imageLink: 'ftp://x/y.png' }))).resolves.toBe('imageLink must be an absolute http(s) URL');
    });

    it('reports every failing field, separated by "; "', async () => {
      await expect(messageOf(body({ name: 5, url: 'ftp://x' }))).resolves.toBe('name must be a string; url must be an absolute http(s) URL');
    });

    it('rejects a body that is not an object', async () => {
      await expect(sut.transform('just text', BODY)).rejects.toThrow(BadRequestException);
    });
  });

  describe('GetProductQueryDto query', () => {
    it('accepts a single productID and returns a GetProductQueryDto instance', async () => {
      const result = await sut.transform({ productID: 'p1' }, QUERY);

      expect(result).toBeInstanceOf(GetProductQueryDto);
      expect(result).toEqual({ productID: 'p1' });
    });

    it('rejects productID given twice (an array)', async () => {
      await expect(sut.transform({ productID: ['a', 'b'] }, QUERY)).rejects.toThrow(BadRequestException);
      await expect(messageOf(sut.transform({ productID: ['a', 'b'] }, QUERY))).resolves.toBe('productID must be a string');
    });

    it('rejects a missing productID as required', async () => {
      await expect(sut.transform({}, QUERY)).rejects.toThrow(BadRequestException);
      await expect(messageOf(sut.transform({}, QUERY))).resolves.toContain('productID is required');
    });

    it('rejects a productID longer than 64 characters', async () => {
      await expect(messageOf(sut.transform({ productID: 'p'.repeat(65) }, QUERY))).resolves.toBe('productID must be 1 to 64 characters long');
    });

    it('rejects unknown query parameters, naming them', async () => {
      await expect(messageOf(sut.transform({ productID: 'p1', debug: '1' }, QUERY))).resolves.toBe('unknown field "debug" is not allowed');
    });

    it.each(['p1 ', ' p1', '\tp1', 'p1\n', 'p1\u00a0', '\u3000p1', 'p1\ufeff'])('rejects the identifier %j, which has whitespace at an end', async (productID) => {
      await expect(messageOf(sut.transform({ productID }, QUERY))).resolves.toBe('productID must not start or end with whitespace');
    });

    it('accepts whitespace inside an identifier: only the ends are refused', async () => {
      await expect(sut.transform({ productID: 'p 1' }, QUERY)).resolves.toEqual({ productID: 'p 1' });
    });
  });

  describe('an optional whole number in a query (OptionalQueryInt)', () => {
    const PAGE: ArgumentMetadata = { type: 'query', metatype: PageQueryDto };

    it.each(['abc', '1.5', '1e3', '-2'])('says %j is not a whole number', async (limit) => {
      await expect(messageOf(sut.transform({ limit }, PAGE))).resolves.toMatch(/^limit must be a whole number/);
    });

    it('gives the range for a whole number outside it', async () => {
      await expect(messageOf(sut.transform({ limit: '0' }, PAGE))).resolves.toMatch(/^limit must be from 1 to/);
    });

    it.each(['abc', '1.5', '-2'])('says %j is not a whole number where OptionalQueryInt declares it (expiresInDays)', async (expiresInDays) => {
      const INVITES: ArgumentMetadata = { type: 'query', metatype: CreateInvitesQueryDto };
      await expect(messageOf(sut.transform({ interviewID: 'i', count: '1', expiresInDays }, INVITES))).resolves.toBe('expiresInDays must be a whole number');
    });
  });

  describe('owner identifiers in a body', () => {
    it.each(['orgID', 'userID'])('refuses %s with a trailing or a leading space, or a no-break space', async (field) => {
      for (const value of ['orgB ', ' orgB', 'orgB\u00a0']) {
        await expect(messageOf(body({ name: 'n', [field]: value }))).resolves.toBe(`${field} must not start or end with whitespace`);
      }
    });

    it('keeps the case of an owner as given: identifiers compare exactly', async () => {
      await expect(body({ name: 'n', orgID: 'ORGB' })).resolves.toMatchObject({ orgID: 'ORGB' });
    });
  });

  describe('other parameters', () => {
    it('passes path strings, custom parameters (the principal) and untyped values through as they are', async () => {
      const principal = { tokenId: 't1', isAdmin: true };
      await expect(sut.transform('aBc_123', { type: 'param', metatype: String, data: 'linkID' })).resolves.toBe('aBc_123');
      await expect(sut.transform(principal, { type: 'custom', metatype: Object })).resolves.toBe(principal);
      await expect(sut.transform(principal, { type: 'custom', metatype: CreateProductDto })).resolves.toBe(principal);
      await expect(sut.transform({ any: 'thing' }, { type: 'query' })).resolves.toEqual({ any: 'thing' });
    });

    it('ignores __proto__ and constructor keys in a query (the parser makes null-prototype objects)', async () => {
      const query = Object.assign(Object.create(null) as Record<string, unknown>, { productID: 'p1', constructor: 'x' });
      Object.defineProperty(query, '__proto__', { value: ['a', 'b'], enumerable: true, configurable: true, writable: true });
      const result = await sut.transform(query, QUERY);
      expect(result).toBeInstanceOf(GetProductQueryDto);
      expect({ ...(result as object) }).toEqual({ productID: 'p1' });
    });
  });

  describe('NoParametersDto query (a route that takes none)', () => {
    const NONE: ArgumentMetadata = { type: 'query', metatype: NoParametersDto };

    it('accepts an empty query', async () => {
      await expect(sut.transform({}, NONE)).resolves.toBeInstanceOf(NoParametersDto);
    });

    it('rejects every parameter, naming each', async () => {
      await expect(messageOf(sut.transform({ x: '1' }, NONE))).resolves.toBe('unknown field "x" is not allowed');
      await expect(messageOf(sut.transform({ limit: '10', cursor: ['a', 'b'] }, NONE))).resolves.toBe('unknown field "limit" is not allowed; unknown field "cursor" is not allowed');
    });
  });
});
