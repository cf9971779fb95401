import { Controller, Get, Headers, Param, Query, Res, UseFilters, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Public } from '../auth/public.decorator';
import { PAGE_BASE_STYLE } from '../common/page-style';
import { LinkIdPipe } from './link-id.pipe';
import { renderRoom, roomCsp } from './room-page';
import { RoomPageFilter } from './room-page.filter';
import { RoomRateLimitGuard } from './room-rate-limit.guard';
import { RoomService } from './room.service';

/** The room's script and stylesheet, read once: plain files, no build step. The stylesheet starts with the house style. */
const ASSETS = {
  'room.js': { type: 'text/javascript; charset=utf-8', body: readFileSync(join(__dirname, 'assets', 'room.js')) },
  'room.css': { type: 'text/css; charset=utf-8', body: PAGE_BASE_STYLE + readFileSync(join(__dirname, 'assets', 'room.css'), 'utf8') },
};

/** The interview room's HTML page at the invite URL, and its two assets. */
@ApiExcludeController()
@Public()
@Controller()
export class RoomPageController {
  constructor(private readonly room: RoomService) {}

  @Get('i/:linkID')
  @UseGuards(RoomRateLimitGuard)
  @UseFilters(RoomPageFilter)
  async page(
    @Param('linkID', LinkIdPipe) linkID: string,
    @Query('lang') lang: unknown,
    @Headers('accept-language') acceptLanguage: string | undefined,
    @Res() res: Response,
  ): Promise<void> {
    const session = await this.room.session(linkID, { query: lang, acceptLanguage });
    const html = renderRoom(session);
    res.setHeader('Content-Security-Policy', roomCsp(session.productImage));
    // The page's language follows the request until the interview starts: caches must keep them apart.
    res.setHeader('Vary', 'Accept-Language');
    res.setHeader('Referrer-Policy', 'no-referrer');
    res.status(200).type('html').send(html);
  }

  /** Static files, loaded several at a time with the page: not rate limited. */
  @Get('assets/:file')
  asset(@Param('file') file: string, @Res() res: Response): void {
    const asset = Object.hasOwn(ASSETS, file) ? ASSETS[file as keyof typeof ASSETS] : undefined;
    if (!asset) {
      res.status(404).type('text/plain').send('not found');
      return;
    }
    res.setHeader('Cache-Control', 'public, max-age=300');
    res.status(200).type(asset.type).send(asset.body);
  }
}
