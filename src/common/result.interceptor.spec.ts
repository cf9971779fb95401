import { CallHandler, ExecutionContext } from '@nestjs/common';
import { firstValueFrom, lastValueFrom, of, throwError, toArray } from 'rxjs';
import { ResultInterceptor } from './result.interceptor';

const context = {} as ExecutionContext;

function handlerOf(value: unknown): CallHandler {
  return { handle: () => of(value) };
}

describe(ResultInterceptor.name, () => {
  let sut: ResultInterceptor;

  beforeEach(() => {
    sut = new ResultInterceptor();
  });

  it('wraps an object in {result}', async () => {
    const product = { id: 'p1', name: 'Acme Notes' };

    await expect(lastValueFrom(sut.intercept(context, handlerOf(product)))).resolves.toEqual({ result: { id: 'p1', name: 'Acme Notes' } });
  });

  it('wraps an array in {result}', async () => {
    await expect(lastValueFrom(sut.intercept(context, handlerOf([{ id: 'a' }, { id: 'b' }])))).resolves.toEqual({
      result: [{ id: 'a' }, { id: 'b' }],
    });
  });

  it('wraps an empty array in {result}', async () => {
    await expect(lastValueFrom(sut.intercept(context, handlerOf([])))).resolves.toEqual({ result: [] });
  });

  it('wraps null in {result: null}', async () => {
    await expect(lastValueFrom(sut.intercept(context, handlerOf(null)))).resolves.toStrictEqual({ result: null });
  });

  it('wraps each emitted value exactly once', async () => {
    const handler: CallHandler = { handle: () => of(1, 2) };

    await expect(firstValueFrom(sut.intercept(context, handler).pipe(toArray()))).resolves.toEqual([{ result: 1 }, { result: 2 }]);
  });

  it('passes errors through unwrapped', async () => {
    const handler: CallHandler = { handle: () => throwError(() => new Error('boom')) };

    await expect(lastValueFrom(sut.intercept(context, handler))).rejects.toThrow('boom');
  });
});
