import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { dataSourceOptions, DatabaseSettings } from './data-source';

@Module({})
export class DatabaseModule {
  /** TypeORM root for an app: entities come from each context's TypeOrmModule.forFeature. */
  static forRoot(settingsToken: symbol, { asynchronousCommit = false } = {}): DynamicModule {
    return {
      module: DatabaseModule,
      imports: [
        TypeOrmModule.forRootAsync({
          inject: [settingsToken],
          useFactory: (settings: DatabaseSettings) => ({
            ...dataSourceOptions({ ...settings, asynchronousCommit }),
            autoLoadEntities: true,
            retryAttempts: 0,
          }),
        }),
      ],
    };
  }
}
