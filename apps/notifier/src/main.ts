import 'reflect-metadata';
import { runApp } from '@fincore/platform';
import { NotifierApp } from './app.definition';

void runApp(NotifierApp);
