import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn, ValueTransformer } from 'typeorm';

/** JSON kept as text (user_info, conversation): stringified on the way in, parsed on the way out. */
const json: ValueTransformer = {
  to: (value: unknown) => (value === undefined || value === null ? value : JSON.stringify(value)),
  from: (value: string | null) => (value === null ? null : JSON.parse(value)),
};

@Entity('api_tokens')
export class ApiToken {
  @PrimaryColumn()
  id: string;

  @Column({ type: 'varchar', nullable: true })
  name: string | null;

  @Column({ name: 'token_hash' })
  tokenHash: string;

  @Column({ name: 'is_admin' })
  isAdmin: boolean;

  @Column({ name: 'org_id', type: 'varchar', nullable: true })
  orgID: string | null;

  @Column({ name: 'user_id', type: 'varchar', nullable: true })
  userID: string | null;

  @Column({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt: Date;

  @Column({ name: 'revoked_at', type: 'datetime', precision: 3, nullable: true })
  revokedAt: Date | null;
}

@Entity('products')
export class Product {
  @PrimaryColumn({ name: 'id' })
  productID: string;

  @Column()
  name: string;

  @Column({ name: 'description', type: 'text', nullable: true })
  desc: string | null;

  @Column({ name: 'org_id', type: 'varchar', nullable: true })
  orgID: string | null;

  @Column({ name: 'user_id', type: 'varchar', nullable: true })
  userID: string | null;

  @Column({ type: 'varchar', nullable: true })
  url: string | null;

  @Column({ name: 'image_link', type: 'varchar', nullable: true })
  imageLink: string | null;

  @Column({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt: Date;

  @Column({ name: 'updated_at', type: 'datetime', precision: 3 })
  updatedAt: Date;
}

@Entity('interviews')
export class Interview {
  @PrimaryColumn({ name: 'id' })
  interviewID: string;

  @Column({ name: 'product_id' })
  productID: string;

  @ManyToOne(() => Product)
  @JoinColumn({ name: 'product_id' })
  product: Product;

  @Column()
  name: string;

  @Column({ type: 'mediumtext', nullable: true })
  guidelines: string | null;

  @Column({ name: 'user_id', type: 'varchar', nullable: true })
  userID: string | null;

  @Column()
  interviewer: string;

  @Column({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt: Date;

  @Column({ name: 'updated_at', type: 'datetime', precision: 3 })
  updatedAt: Date;
}

export interface UserInfo {
  email: string | null;
  name: string | null;
  occupation: string | null;
}

export interface ConversationTurn {
  role: string;
  content: string;
}

@Entity('invites')
export class Invite {
  @PrimaryColumn({ name: 'link_id' })
  linkID: string;

  @Column({ name: 'interview_id' })
  interviewID: string;

  @ManyToOne(() => Interview)
  @JoinColumn({ name: 'interview_id' })
  interview: Interview;

  @Column({ name: 'product_id' })
  productID: string;

  @ManyToOne(() => Product)
  @JoinColumn({ name: 'product_id' })
  product: Product;

  @Column({ name: 'org_id', type: 'varchar', nullable: true })
  orgID: string | null;

  @Column({ name: 'user_info', type: 'mediumtext', nullable: true, transformer: json })
  userInfo: UserInfo | null;

  @Column()
  status: string;

  @Column({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt: Date;

  @Column({ name: 'completed_on', type: 'datetime', precision: 3, nullable: true })
  completedOn: Date | null;

  @Column({ name: 'expires_on', type: 'datetime', precision: 3 })
  expiresOn: Date;

  @Column({ type: 'mediumtext', transformer: json })
  conversation: ConversationTurn[];

  @Column()
  source: string;

  @Column({ name: 'participant_id', type: 'varchar', nullable: true })
  participantID: string | null;

  @Column({ type: 'varchar', nullable: true })
  segment: string | null;

  @Column({ type: 'text', nullable: true, transformer: json })
  passthrough: Record<string, string> | null;

  @Column({ type: 'text', nullable: true, transformer: json })
  screener: unknown[] | null;

  @Column({ type: 'text', nullable: true, transformer: json })
  quality: unknown;

  @Column({ name: 'updated_at', type: 'datetime', precision: 3 })
  updatedAt: Date;
}
