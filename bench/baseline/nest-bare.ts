/**
 * Bare Nest for `npm run bench`: a minimal NestJS application on Express doing the same work per
 * request as the floor (server.ts), through the same code (work.ts: token check, validation, the
 * service's SQL on a mysql2 pool, the service's JSON envelope). What it adds to the floor is Nest's
 * routing and Express, so that the report can tell the framework's cost from the service's own.
 *
 * No globals: no guard, no exception filter, no interceptor, no pipe, no middleware except Nest's
 * JSON body parser. Each handler checks the token itself and turns a failure into an HttpException
 * whose body is the service's {error, message}, which Nest's default handler sends as it is. Express
 * is set up as the service sets it up (no X-Powered-By, the simple query parser, no ETag).
 *
 * Not covered by the envelope: body-parser's own errors (invalid JSON, too large) and unknown routes
 * get Nest's default answers. The benchmark sends neither. Room bodies are parsed with the API's body
 * limit (BODY_LIMIT_BYTES), not the room's 16 KB: one JSON parser serves the whole app.
 *
 * Configuration: the service's own environment (loadConfig), PORT to listen on.
 */
import 'reflect-metadata';
import { Body, Controller, Get, HttpCode, HttpException, Module, Param, Post, Query, Req } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Request } from 'express';
import type { Principal } from '../../src/auth/principal';
import {
  authenticate,
  config,
  errorReply,
  health,
  invitesCreateInvites,
  invitesGetList,
  invitesGetOne,
  pool,
  productsAddOne,
  productsGetList,
  productsGetOne,
  requireJson,
} from './work';
import { roomReply } from './room';

type QueryObject = Record<string, unknown>;

/** The token check, then the work, answered as {result}; any failure as the service's {error, message}. */
async function answer<T>(req: Request, work: (p: Principal) => Promise<T>): Promise<{ result: T }> {
  return answerPublic(req, async () => work(await authenticate(req.headers.authorization)));
}

/** The work without a token (the interview room), answered as {result} or the service's {error, message}. */
async function answerPublic<T>(req: Request, work: () => Promise<T>): Promise<{ result: T }> {
  try {
    return { result: await work() };
  } catch (error) {
    const { status, body, headers } = errorReply(error, 'nest-bare');
    for (const [name, value] of Object.entries(headers)) req.res?.setHeader(name, value);
    throw new HttpException(body, status);
  }
}

@Controller('v1/products')
class ProductsController {
  @Get('getOne')
  getOne(@Req() req: Request, @Query() query: QueryObject) {
    return answer(req, (p) => productsGetOne(p, Object.entries(query)));
  }

  @Get('getList')
  getList(@Req() req: Request, @Query() query: QueryObject) {
    return answer(req, (p) => productsGetList(p, Object.entries(query)));
  }

  @Post('addOne')
  @HttpCode(201)
  addOne(@Req() req: Request, @Query() query: QueryObject, @Body() body: unknown) {
    return answer(req, async (p) => {
      requireJson(req.headers['content-type']);
      return productsAddOne(p, Object.entries(query), body);
    });
  }
}

@Controller('v1/invites')
class InvitesController {
  @Get('getOne')
  getOne(@Req() req: Request, @Query() query: QueryObject) {
    return answer(req, (p) => invitesGetOne(p, Object.entries(query)));
  }

  @Get('getList')
  getList(@Req() req: Request, @Query() query: QueryObject) {
    return answer(req, (p) => invitesGetList(p, Object.entries(query)));
  }

  @Get('createInvites')
  createInvites(@Req() req: Request, @Query() query: QueryObject) {
    return answer(req, (p) => invitesCreateInvites(p, Object.entries(query)));
  }
}

@Controller('i/:linkID')
class RoomController {
  @Post('reply')
  @HttpCode(200)
  reply(@Req() req: Request, @Param('linkID') linkID: string, @Body() body: unknown) {
    return answerPublic(req, async () => {
      requireJson(req.headers['content-type']);
      return roomReply(linkID, body);
    });
  }
}

@Controller('health')
class HealthController {
  @Get()
  async check() {
    try {
      return { result: await health() };
    } catch (error) {
      const { status, body } = errorReply(error, 'nest-bare');
      throw new HttpException(body, status);
    }
  }
}

@Module({ controllers: [HealthController, ProductsController, InvitesController, RoomController] })
class BareModule {}

async function main(): Promise<void> {
  const app = await NestFactory.create<NestExpressApplication>(BareModule, { bodyParser: false, logger: ['fatal', 'error', 'warn'], abortOnError: false });
  app.useBodyParser('json', { limit: config.bodyLimitBytes });
  app.set('x-powered-by', false);
  app.set('query parser', 'simple');
  app.set('etag', false);
  await app.listen(config.port);
  process.stdout.write(`bare Nest listening on ${config.port}\n`);

  const shutdown = (): void => {
    void app
      .close()
      .then(() => pool.end())
      .finally(() => process.exit(0));
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
}

main().catch((error: unknown) => {
  process.stderr.write(`bare Nest failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
