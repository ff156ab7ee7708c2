import { Module } from '@nestjs/common';
import { EventsModule } from '@fincore/events';
import { CredentialsModule } from './credentials/credentials.module';
import { PersonsModule } from './persons/persons.module';

@Module({
  imports: [EventsModule.forRoot({ relay: true }), PersonsModule, CredentialsModule],
})
export class CredentialsApiModule {}
