import { Controller, Get, Param, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Public } from '../auth/public.decorator';
import { ROOM_CSP, renderRoom, renderRoomError } from './room-page';
import { RoomNotFoundException } from './room.errors';
import { LINK_ID_PATTERN } from './room.limits';
import { RoomService } from './room.service';

/** The room's script and stylesheet, read once: plain files, no build step. */
const ASSETS = {
  'room.js': { type: 'text/javascript; charset=utf-8', body: readFileSync(join(__dirname, 'assets', 'room.js')) },
  'room.css': { type: 'text/css; charset=utf-8', body: readFileSync(join(__dirname, 'assets', 'room.css')) },
};


/** The interview room's HTML page at the invite URL, and its two assets. */
@ApiExcludeController()
@Public()
@Controller()
export class RoomPageController {
  constructor(private readonly room: RoomService) {}

  @Get('i/:linkID')
  async page(@Param('linkID') linkID: string, @Res() res: Response): Promise<void> {
    res.setHeader('Content-Security-Policy', ROOM_CSP);
    try {
      if (!LINK_ID_PATTERN.test(linkID)) throw new RoomNotFoundException();
      const html = renderRoom(this.room.toSession(await this.room.read(linkID)));
      res.status(200).type('html').send(html);
    } catch (error) {
      if (!(error instanceof RoomNotFoundException)) throw error;
      res.status(404).type('html').send(renderRoomError(404, error.message));
    }
  }

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
