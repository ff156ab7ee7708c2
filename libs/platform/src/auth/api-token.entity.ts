import { Column, CreateDateColumn, Entity, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { TenantEntity } from './tenant.entity';

/** An API token; only its SHA-256 hash is stored, the token itself is shown once at creation. */
@Entity({ schema: 'platform', name: 'api_tokens' })
export class ApiTokenEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'tenant_id', type: 'uuid' })
  tenantId: string;

  @ManyToOne(() => TenantEntity)
  @JoinColumn({ name: 'tenant_id' })
  tenant?: TenantEntity;

  @Column({ type: 'varchar', length: 200 })
  name: string;

  @Column({ name: 'token_hash', type: 'char', length: 64, unique: true, select: false })
  tokenHash: string;

  /** First characters of the token, so operators can tell tokens apart without the secret. */
  @Column({ name: 'token_prefix', type: 'varchar', length: 16 })
  tokenPrefix: string;

  @Column({ type: 'text', array: true })
  scopes: string[];

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'last_used_at', type: 'timestamptz', nullable: true })
  lastUsedAt: Date | null;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt: Date | null;
}
