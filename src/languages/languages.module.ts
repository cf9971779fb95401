import { Module } from '@nestjs/common';
import { LanguagesController } from './languages.controller';

/** The supported languages (GET /v1/languages/getList); the catalogs are plain modules the room and agents import. */
@Module({ controllers: [LanguagesController] })
export class LanguagesModule {}
