import { CallHandler, ExecutionContext, StreamableFile } from '@nestjs/common';
import { Readable } from 'node:stream';
import { lastValueFrom, of } from 'rxjs';
import { ResultInterceptor } from './result.interceptor';

const context = {} as ExecutionContext;
const handler = (value: unknown): CallHandler => ({ handle: () => of(value) });

describe(ResultInterceptor.name, () => {
  const sut = new ResultInterceptor();

  it.each([[{ productID: 'p1' }], [[1, 2]], [null], ['text'], [0]])('wraps %p in {result}', async (value) => {
    await expect(lastValueFrom(sut.intercept(context, handler(value)))).resolves.toEqual({ result: value });
  });

  it('lets a StreamableFile through as it is: streams write their own body', async () => {
    const file = new StreamableFile(Readable.from(['{"result":[]}']));
    await expect(lastValueFrom(sut.intercept(context, handler(file)))).resolves.toBe(file);
  });
});
