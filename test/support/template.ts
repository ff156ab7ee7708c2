import { Client } from 'pg';
import { migrate } from '../../libs/database/src/data-source';

/** Creates database `name` on the server of `adminUrl` and applies every migration to it. */
export async function createMigratedTemplate(adminUrl: string, name: string): Promise<void> {
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  await migrate({ DATABASE_URL: urlOfDatabase(adminUrl, name) });
}

/** The URL of another database on the same server. */
export function urlOfDatabase(serverUrl: string, name: string): string {
  const u = new URL(serverUrl);
  u.pathname = `/${name}`;
  return u.toString();
}
