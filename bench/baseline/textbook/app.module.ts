import { Module, ValidationPipe } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR, APP_PIPE } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AllExceptionsFilter } from './all-exceptions.filter';
import { AuthGuard } from './auth.guard';
import { ApiToken, Interview, Invite, Product } from './entities';
import { HealthController } from './health.controller';
import { InvitesController } from './invites.controller';
import { InvitesService } from './invites.service';
import { ProductsController } from './products.controller';
import { ProductsService } from './products.service';
import { ResultInterceptor } from './result.interceptor';

const entities = [ApiToken, Product, Interview, Invite];

const url = process.env.DATABASE_URL ?? '';
if (!/^(mysql|mariadb):\/\//i.test(url)) throw new Error('DATABASE_URL must be mysql://... or mariadb://...');

@Module({
  imports: [
    TypeOrmModule.forRoot({
      type: /^mariadb:/i.test(url) ? 'mariadb' : 'mysql',
      url,
      entities,
      synchronize: false,
      charset: 'utf8mb4_unicode_ci',
      timezone: 'Z',
      poolSize: 10,
      // mysql2's long stack traces (a stack captured on every query) off, as the service has them.
      trace: false,
    }),
    TypeOrmModule.forFeature(entities),
  ],
  controllers: [HealthController, ProductsController, InvitesController],
  providers: [
    ProductsService,
    InvitesService,
    { provide: APP_GUARD, useClass: AuthGuard },
    { provide: APP_PIPE, useValue: new ValidationPipe({ whitelist: true, forbidNonWhitelisted: true, transform: true }) },
    { provide: APP_INTERCEPTOR, useClass: ResultInterceptor },
    { provide: APP_FILTER, useClass: AllExceptionsFilter },
  ],
})
export class AppModule {}
