import { TestApp, bearer, scopedToken, startApp, uniq } from './helpers/app';
import { Browser, authorize, describeInBrowser, execute, launchBrowser, openDocs, paramInput, paramValues, tryItOut } from './helpers/browser';
import { makeProduct } from './helpers/factories';

/**
 * A newcomer exploring the API in Swagger UI: Authorize, "Try it out", fill only what they care about,
 * Execute, and get their own rows. Nothing they did not choose may be pre-filled.
 */
describeInBrowser('Swagger UI at /docs, in a real browser', () => {
  let t: TestApp;
  let browser: Browser | undefined;
  let baseUrl: string;
  let orgID: string;
  let token: string;

  beforeAll(async () => {
    t = await startApp();
    await t.app.listen(0, '127.0.0.1');
    baseUrl = (await t.app.getUrl()).replace('[::1]', 'localhost');
    orgID = uniq('org');
    token = await scopedToken(t, { orgID });
    browser = await launchBrowser();
    await openDocs(browser.page, baseUrl);
    await authorize(browser.page, token);
  }, 60_000);

  afterAll(async () => {
    await browser?.close(); // never leaves a chromium behind, even when a test failed
    await t?.close();
  });

  it('lists products with only orgID filled in: the answer holds them', async () => {
    const { page } = browser!;
    const productID = await makeProduct(t, token, { name: 'Listed in Swagger UI', orgID });
    const op = await tryItOut(page, 'products', 'ProductsController_getList');

    expect(await paramValues(op)).toEqual({ limit: '', cursor: '', userID: '', orgID: '' });
    await paramInput(op, 'orgID').fill(orgID);

    const res = await execute(page, op, 'GET', '/v1/products/getList');
    expect(res.url).toBe(`${baseUrl}/v1/products/getList?orgID=${orgID}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: [expect.objectContaining({ productID, name: 'Listed in Swagger UI', orgID })] });
    expect(browser!.errors).toEqual([]);
  });

  it('creates a product from the example body with the organization changed: 201', async () => {
    const { page } = browser!;
    const op = await tryItOut(page, 'products', 'ProductsController_addOne');
    expect(await paramValues(op)).toEqual({ 'Idempotency-Key': '' });
    const body = op.locator('textarea.body-param__text');
    const example = JSON.parse(await body.inputValue());
    expect(example).toEqual({ name: 'Acme Notes', orgID: 'org_acme' });
    await body.fill(JSON.stringify({ ...example, orgID }));

    const res = await execute(page, op, 'POST', '/v1/products/addOne');
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ result: { productID: expect.any(String) } });
    expect(res.network.request().headers()['idempotency-key']).toBeUndefined();
    const read = await t.http.get('/v1/products/getOne').query({ productID: (res.body as { result: { productID: string } }).result.productID }).set(bearer(token));
    expect(read.body.result).toMatchObject({ name: 'Acme Notes', orgID });
    expect(browser!.errors).toEqual([]);
  });
});
