import 'reflect-metadata';
import { runApp } from '@fincore/platform';
import { CredentialsApiApp } from './app.definition';

void runApp(CredentialsApiApp);
