import 'reflect-metadata';
import { runApp } from '@fincore/platform';
import { CardApiApp } from './app.definition';

void runApp(CardApiApp);
