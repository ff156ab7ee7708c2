import 'reflect-metadata';
import { runApp } from '@fincore/platform';
import { NotificationApiApp } from './app.definition';

void runApp(NotificationApiApp);
