import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { CredentialsStatus } from './domain/credentials';

/** A person of a tenant with their current credentials (one set at a time). */
@Entity({ schema: 'credentials', name: 'persons' })
export class PersonEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'tenant_id', type: 'uuid' })
  tenantId: string;

  /** The identifier callers use; unique per tenant. */
  @Column({ name: 'person_id', type: 'varchar', length: 64 })
  personId: string;

  @Column({ name: 'first_name', type: 'varchar', length: 100, nullable: true })
  firstName: string | null;

  @Column({ name: 'last_name', type: 'varchar', length: 100, nullable: true })
  lastName: string | null;

  @Column({ type: 'varchar', length: 254, nullable: true })
  email: string | null;

  @Column({ type: 'varchar', length: 16, nullable: true })
  phone: string | null;

  @Column({ type: 'varchar', length: 256 })
  username: string;

  @Column({ name: 'username_key', type: 'varchar', length: 256 })
  usernameKey: string;

  /** argon2id PHC string; never leaves this service. */
  @Column({ name: 'password_hash', type: 'text' })
  passwordHash: string;

  @Column({ name: 'credentials_status', type: 'varchar', length: 16 })
  credentialsStatus: CredentialsStatus;

  @Column({ name: 'credentials_invalidated_at', type: 'timestamptz', nullable: true })
  credentialsInvalidatedAt: Date | null;

  @Column({ name: 'credentials_updated_at', type: 'timestamptz' })
  credentialsUpdatedAt: Date;

  @Column({ name: 'created_at', type: 'timestamptz', insert: false, update: false })
  createdAt: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;

  /** Set once the person is erased: the row is then a tombstone with the erasure record. */
  @Column({ name: 'erased_at', type: 'timestamptz', nullable: true })
  erasedAt: Date | null;

  @Column({ name: 'erased_by_token_id', type: 'uuid', nullable: true })
  erasedByTokenId: string | null;

  @Column({ name: 'erasure_request_id', type: 'varchar', length: 128, nullable: true })
  erasureRequestId: string | null;
}
