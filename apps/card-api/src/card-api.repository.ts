import type { DataSource, EntityManager, EntityTarget, ObjectLiteral, QueryDeepPartialEntity } from 'typeorm';

/**
 * What card-api's repositories (cards and pricing) share: entities from raw statements that join,
 * and inserts that leave a taken business id alone. Methods that run in the caller's transaction
 * take its EntityManager first; the others read committed rows through the DataSource.
 */
export abstract class CardApiRepository {
  protected constructor(protected readonly db: DataSource) {}

  /** `alias.column AS "alias_column"` for every column of the entity, for a raw statement that joins. */
  protected selectList(entity: EntityTarget<ObjectLiteral>, alias: string): string {
    return this.db
      .getMetadata(entity)
      .columns.map((c) => `${alias}.${c.databaseName} AS "${alias}_${c.databaseName}"`)
      .join(', ');
  }

  /** The entity from a raw row selected with selectList (the driver already converted the values). */
  protected entityFrom<T extends ObjectLiteral>(
    entity: EntityTarget<T>,
    row: Record<string, unknown>,
    alias: string,
  ): T {
    const metadata = this.db.getMetadata(entity);
    const target = metadata.create() as T;
    for (const c of metadata.columns) c.setEntityValue(target, row[`${alias}_${c.databaseName}`]);
    return target;
  }

  /**
   * INSERT … ON CONFLICT DO NOTHING: a taken business id is the caller's answer (409, or "already
   * there" for demo data), not a failed statement. True when the first row went in.
   */
  protected async insertIgnoringConflicts<T extends ObjectLiteral>(
    manager: EntityManager,
    entity: EntityTarget<T>,
    rows: QueryDeepPartialEntity<T>[],
  ): Promise<boolean> {
    const inserted = await manager
      .getRepository(entity)
      .createQueryBuilder()
      .insert()
      .values(rows)
      .orIgnore()
      .execute();
    return inserted.identifiers.length > 0 && !!inserted.identifiers[0];
  }
}
