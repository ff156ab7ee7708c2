import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PersonEntity } from '../persons/entities/person.entity';
import './credentials.messages';
import { CredentialsController } from './credentials.controller';
import { CredentialsService } from './credentials.service';
import { LoginThrottle } from './login-throttle';
import { PasswordHasher } from './password-hasher';

@Module({
  imports: [TypeOrmModule.forFeature([PersonEntity])],
  controllers: [CredentialsController],
  providers: [CredentialsService, PasswordHasher, LoginThrottle],
  exports: [PasswordHasher, LoginThrottle],
})
export class CredentialsModule {}
