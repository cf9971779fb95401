/**
 * The product reads, and the insert, in plain SQL: the hottest paths, where TypeORM's query builder
 * cost more CPU than the query. '?' placeholders and backticks work on mysql2 and better-sqlite3
 * alike. The benchmark's baseline runs these same texts.
 */
export const PRODUCT_COLUMNS =
  'p.id AS productID, p.name AS name, p.description AS `desc`, p.org_id AS orgID, p.user_id AS userID, p.url AS url, p.image_link AS imageLink';

export const PRODUCT_BY_ID = `SELECT ${PRODUCT_COLUMNS} FROM products p WHERE p.id = ?`;

/** A list's SELECT ... FROM; the caller adds WHERE, order and limit (pagedSql). */
export const PRODUCT_LIST = `SELECT ${PRODUCT_COLUMNS}, p.created_at AS createdAt FROM products p`;
export const PRODUCT_KEYS = { created: 'p.created_at', id: 'p.id' } as const;

/**
 * A new product: id, name, description, org_id, user_id, url, image_link, created_at, updated_at (times
 * as sqlDate gives them). Repository.insert built this statement anew on every addOne.
 */
export const PRODUCT_INSERT =
  'INSERT INTO products (id, name, description, org_id, user_id, url, image_link, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)';

/** A product as read by the SQL above: the API's fields. */
export interface ProductRow {
  productID: string;
  name: string;
  desc: string | null;
  orgID: string | null;
  userID: string | null;
  url: string | null;
  imageLink: string | null;
}
