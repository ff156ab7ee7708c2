import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CredentialsModule } from '../credentials/credentials.module';
import { PersonEntity } from './entities/person.entity';
import './persons.messages';
import { PersonsController } from './persons.controller';
import { PersonsService } from './persons.service';

@Module({
  imports: [TypeOrmModule.forFeature([PersonEntity]), CredentialsModule],
  controllers: [PersonsController],
  providers: [PersonsService],
})
export class PersonsModule {}
