import type { TestApp } from './app';
import { bearer } from './app';

export interface ProductInput {
  name?: unknown;
  desc?: unknown;
  orgID?: unknown;
  userID?: unknown;
  url?: unknown;
  imageLink?: unknown;
}

/** Creates a product through the API and returns its id; fails the test on any non-201. */
export async function makeProduct(t: TestApp, token: string, overrides: ProductInput = {}): Promise<string> {
  const res = await t.http
    .post('/v1/products/addOne')
    .set(bearer(token))
    .send({ name: 'Test product', ...overrides });
  if (res.status !== 201) throw new Error(`makeProduct: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.result.productID;
}

export async function makeInterview(t: TestApp, token: string, productID: string, overrides: Record<string, unknown> = {}): Promise<string> {
  const res = await t.http
    .post('/v1/interviews/addOne')
    .set(bearer(token))
    .send({ productID, interviewName: 'Test interview', ...overrides });
  if (res.status !== 201) throw new Error(`makeInterview: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.result.interviewID;
}
