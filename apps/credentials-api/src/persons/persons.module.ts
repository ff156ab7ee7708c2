import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { WebhookDeliveryErasureRepository } from '@fincore/notifications';
import { PersonEntity } from './person.entity';
import { LoginThrottle } from './login-throttle';
import { PasswordHasher } from './password-hasher';
import { PersonRepository } from './person.repository';
import { PersonsController } from './persons.controller';
import { PersonsService } from './persons.service';
import { PersonErasuresService } from './person-erasures.service';

/** The person aggregate with its credentials; the credentials module builds on what it exports. */
@Module({
  imports: [TypeOrmModule.forFeature([PersonEntity])],
  controllers: [PersonsController],
  providers: [
    PersonRepository,
    PersonsService,
    PersonErasuresService,
    // The notification context's part of an erasure, which runs in this service's transaction.
    WebhookDeliveryErasureRepository,
    PasswordHasher,
    LoginThrottle,
  ],
  exports: [PersonRepository, PasswordHasher, LoginThrottle],
})
export class PersonsModule {}
