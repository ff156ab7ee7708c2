import type { AppDefinition } from '@fincore/platform';
import { CredentialsApiModule } from './credentials-api.module';

export const CredentialsApiApp: AppDefinition = {
  name: 'credentials-api',
  title: 'fincore credentials API',
  description: 'Persons and their credentials: create, authenticate, invalidate.',
  module: CredentialsApiModule,
  port: (config) => config.CREDENTIALS_API_PORT,
};
