import type { DataSource } from 'typeorm';
import type { AppDefinition } from '@fincore/platform';
import { RunningApp, TenantFixture, TestStack } from './stack';

/** What most specs of one API work with: the app under test on its own stack, and two tenants. */
export interface AppWorld {
  stack: TestStack;
  sut: RunningApp;
  /** The stack's database as `stack.db()` opens it, without further entities. */
  db: DataSource;
  /** The tenant the spec acts as. */
  acme: TenantFixture;
  /** acme's token, with every scope. */
  token: string;
  /** A second tenant, to show that what is acme's stays hidden from it and the other way round. */
  other: TenantFixture;
}

/**
 * Starts the app in-process on a new stack (with the settings given), opens the stack's database and
 * makes two tenants. Call it in `beforeAll` and close `stack` in `afterAll`.
 */
export async function startAppWorld(
  definition: AppDefinition,
  settings: Record<string, string> = {},
): Promise<AppWorld> {
  const stack = await TestStack.create(settings);
  try {
    const sut = await stack.startApp(definition);
    const db = await stack.db();
    const acme = await stack.createTenant();
    return { stack, sut, db, acme, token: acme.token, other: await stack.createTenant() };
  } catch (error) {
    await stack.close();
    throw error;
  }
}
