import {
  ArgumentsHost,
  BadRequestException,
  ConflictException,
  ForbiddenException,
  HttpException,
  Logger,
  NotFoundException,
  UnauthorizedException,
} from '@nestjs/common';
import { AllExceptionsFilter, errorResponseOf } from './all-exceptions.filter';

interface FakeResponse {
  headersSent: boolean;
  status: jest.Mock;
  json: jest.Mock;
  setHeader: jest.Mock;
  destroy: jest.Mock;
}

function fakeResponse(headersSent = false): FakeResponse {
  const res = { headersSent, status: jest.fn(), json: jest.fn(), setHeader: jest.fn(), destroy: jest.fn() };
  res.status.mockReturnValue(res);
  res.json.mockReturnValue(res);
  return res;
}

function hostFor(res: FakeResponse, req: object = { id: 'req-1', headers: {} }): ArgumentsHost {
  return {
    switchToHttp: () => ({ getResponse: () => res, getRequest: () => req, getNext: () => undefined }),
  } as unknown as ArgumentsHost;
}

describe(AllExceptionsFilter.name, () => {
  let sut: AllExceptionsFilter;
  let errorLog: jest.SpyInstance;
  let warnLog: jest.SpyInstance;

  beforeEach(() => {
    errorLog = jest.spyOn(Logger.prototype, 'error').mockImplementation();
    warnLog = jest.spyOn(Logger.prototype, 'warn').mockImplementation();
    sut = new AllExceptionsFilter();
  });

  afterEach(() => {
    jest.restoreAllMocks();
  });

  describe(errorResponseOf.name, () => {
    const logger = new Logger('test');
    const toResponse = (exception: unknown, req?: never) => errorResponseOf(exception, logger, req);

    it('maps NotFoundException to 404 with its message', () => {
      expect(toResponse(new NotFoundException('product "p1" not found'))).toEqual({
        status: 404,
        body: { error: 404, message: 'product "p1" not found' },
        headers: {},
      });
    });

    it('joins an array message of BadRequestException with "; "', () => {
      const { status, body } = toResponse(new BadRequestException(['name must be a string', 'url must be an absolute http(s) URL']));

      expect(status).toBe(400);
      expect(body).toEqual({ error: 400, message: 'name must be a string; url must be an absolute http(s) URL' });
    });

    it('keeps error equal to the status for other HTTP exceptions', () => {
      expect(toResponse(new ForbiddenException('not yours')).body).toEqual({ error: 403, message: 'not yours' });
      expect(toResponse(new ConflictException('taken')).body).toEqual({ error: 409, message: 'taken' });
      expect(toResponse(new HttpException('slow down', 429)).body).toEqual({ error: 429, message: 'slow down' });
    });

    it('adds WWW-Authenticate: Bearer to 401 responses', () => {
      expect(toResponse(new UnauthorizedException('invalid or revoked token'))).toEqual({
        status: 401,
        body: { error: 401, message: 'invalid or revoked token' },
        headers: { 'WWW-Authenticate': 'Bearer' },
      });
    });

    it.each<[string, unknown]>([
      ['a driver error with code ECONNREFUSED', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:3306'), { code: 'ECONNREFUSED' })],
      ['a plain object with code ECONNREFUSED', { code: 'ECONNREFUSED' }],
      ['a TypeORM-like error wrapping PROTOCOL_CONNECTION_LOST', { driverError: { code: 'PROTOCOL_CONNECTION_LOST' }, message: 'Connection lost' }],
      ['Error("Pool is closed.")', new Error('Pool is closed.')],
    ])('maps %s to 503 with Retry-After', (_label, exception) => {
      expect(toResponse(exception)).toEqual({
        status: 503,
        body: { error: 503, message: 'database unavailable, try again shortly' },
        headers: { 'Retry-After': '5' },
      });
      expect(warnLog).toHaveBeenCalledTimes(1);
    });

    it('answers an error whose type is an Object.prototype name ("toString") with a generic 500', () => {
      expect(toResponse({ type: 'toString' }).body).toEqual({ error: 500, message: 'internal server error' });
    });

    it('treats an object with an unknown type as an unexpected error', () => {
      expect(toResponse({ type: 'system', message: 'fetch failed' }).body).toEqual({ error: 500, message: 'internal server error' });
    });

    it('maps a duplicate key error to 409 without echoing the driver text', () => {
      const { status, body } = toResponse({ code: 'ER_DUP_ENTRY', message: "Duplicate entry 'x' for key 'uq_api_tokens_hash'" });

      expect(status).toBe(409);
      expect(body).toEqual({ error: 409, message: 'conflicts with a stored record' });
    });

    it('answers an unexpected error with a generic 500 that leaks neither SQL nor stack', () => {
      const error = new Error('SELECT * FROM secret');
      const { status, body, headers } = toResponse(error, { id: 'req-7' } as never);

      expect(status).toBe(500);
      expect(body).toEqual({ error: 500, message: 'internal server error' });
      expect(body.message).not.toContain('SELECT');
      expect(JSON.stringify(body)).not.toContain('SELECT');
      expect(JSON.stringify(body)).not.toContain(error.stack!.split('\n')[1].trim());
      expect(headers).toEqual({});
      expect(errorLog).toHaveBeenCalledWith(expect.objectContaining({ requestId: 'req-7', error: 'SELECT * FROM secret' }));
    });

    it('answers a thrown non-Error value with a generic 500', () => {
      expect(toResponse('boom').body).toEqual({ error: 500, message: 'internal server error' });
      expect(toResponse(undefined).body).toEqual({ error: 500, message: 'internal server error' });
    });
  });

  describe('catch', () => {
    it('writes status and {error, message} to the response', () => {
      const res = fakeResponse();

      sut.catch(new NotFoundException('interview "i1" not found'), hostFor(res));

      expect(res.status).toHaveBeenCalledWith(404);
      expect(res.json).toHaveBeenCalledWith({ error: 404, message: 'interview "i1" not found' });
      expect(res.setHeader).not.toHaveBeenCalled();
    });

    it('sets WWW-Authenticate on a 401', () => {
      const res = fakeResponse();

      sut.catch(new UnauthorizedException('missing Authorization header'), hostFor(res));

      expect(res.setHeader).toHaveBeenCalledWith('WWW-Authenticate', 'Bearer');
      expect(res.status).toHaveBeenCalledWith(401);
      expect(res.json).toHaveBeenCalledWith({ error: 401, message: 'missing Authorization header' });
    });

    it('sets Retry-After on a 503', () => {
      const res = fakeResponse();

      sut.catch(new Error('Pool is closed.'), hostFor(res));

      expect(res.setHeader).toHaveBeenCalledWith('Retry-After', '5');
      expect(res.status).toHaveBeenCalledWith(503);
      expect(res.json).toHaveBeenCalledWith({ error: 503, message: 'database unavailable, try again shortly' });
    });

    it('sends a generic 500 for an unexpected error, without SQL or stack', () => {
      const res = fakeResponse();

      sut.catch(new Error('SELECT * FROM secret'), hostFor(res));

      expect(res.status).toHaveBeenCalledWith(500);
      expect(res.json).toHaveBeenCalledWith({ error: 500, message: 'internal server error' });
      expect(JSON.stringify(res.json.mock.calls)).not.toMatch(/SELECT|at /);
    });

    it('cuts the connection, writing nothing, once headers have been sent (a stream that failed half-way)', () => {
      const res = fakeResponse(true);

      sut.catch(new NotFoundException('gone'), hostFor(res));

      expect(res.destroy).toHaveBeenCalledTimes(1);
      expect(res.status).not.toHaveBeenCalled();
      expect(res.json).not.toHaveBeenCalled();
      expect(res.setHeader).not.toHaveBeenCalled();
    });
  });
});
