import { IncomingMessage, ServerResponse } from 'node:http';
import { Writable } from 'node:stream';
import pinoHttp, { type Options } from 'pino-http';
import { loggerParams } from './logging';

/**
 * The request line and the lines written during a request, as docs/monitoring.md shows them, from
 * pino-http with the service's options (one child logger per request, bound under requestId).
 */
describe('request logs', () => {
  it('write the id on every line of a request, and the id, method, status, time and route on its line', () => {
    const params = loggerParams({ logLevel: 'info', logFormat: 'json' });
    const [options] = params.pinoHttp as [Options, unknown];
    const lines: Record<string, unknown>[] = [];
    const out = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(JSON.parse(chunk.toString('utf8')) as Record<string, unknown>);
        done();
      },
    });
    const log = pinoHttp(options, out);
    const req = new IncomingMessage(null as never);
    req.method = 'GET';
    req.url = '/v1/products/getOne?productID=p1';
    req.headers = { 'x-request-id': 'req-42', authorization: 'Bearer irs_secret' };
    const res = new ServerResponse(req);
    res.statusCode = 200;
    log(req, res, () => undefined);
    req.log.info({ msg: 'during' });
    res.emit('finish');

    const shape = lines.map(({ time, pid: _pid, hostname: _hostname, responseTime, ...rest }) => ({ ...rest, time: typeof time, responseTime: typeof responseTime }));
    expect(shape).toEqual([
      { level: 'info', requestId: 'req-42', msg: 'during', time: 'string', responseTime: 'undefined' },
      { level: 'info', requestId: 'req-42', req: { id: 'req-42', method: 'GET' }, res: { statusCode: 200 }, route: '(no route)', msg: 'request', time: 'string', responseTime: 'number' },
    ]);
    // Bindings first, then the line's own fields, as the documented example reads.
    expect(Object.keys(lines[1])).toEqual(['level', 'time', 'pid', 'hostname', 'requestId', 'req', 'res', 'responseTime', 'route', 'msg']);
    expect(JSON.stringify(lines)).not.toContain('secret');
    expect(JSON.stringify(lines)).not.toContain('productID');
  });
});
