// First: loading everything else is what would grow the young generation.
import { letYoungGenerationGrow } from './young-generation';
import 'reflect-metadata';
import { runApp } from '@fincore/platform';
import { NotifierApp } from './app.definition';

void runApp(NotifierApp).then(() => letYoungGenerationGrow());
