import { LRUCache } from 'lru-cache';
import type { EntityManager, ObjectLiteral, SelectQueryBuilder } from 'typeorm';

/**
 * SQL text of the lists' SELECTs, with their :named parameters, by the builder's shape: the lists build
 * the same few queries over and over with other values, and a builder's getQuery() (its select list
 * expanded, every property name replaced through a regular expression of the entity's properties, the
 * names escaped) was what a 100-row page cost beyond ef242af's plain SQL (products/getList × 100
 * sequential, 1.06-1.08x ef242af's time in interleaved A/Bs; the profile's difference was getQuery()
 * and little else). The parameters still go through the driver's own
 * escapeQueryWithParameters on every call, as getQueryAndParameters() does.
 */
const texts = new LRUCache<string, string>({ max: 1000 });

/**
 * What getQuery() reads of a single-table SELECT, as a key; undefined for any builder with more than
 * that (joins, grouping, locks, subqueries, CTEs, ...), whose text is built every time. Everything in the
 * key is text or numbers the builder holds; the values of parameters are not part of it.
 */
function shapeOf(query: SelectQueryBuilder<ObjectLiteral>): string | undefined {
  const map = query.expressionMap;
  const alias = map.mainAlias;
  if (
    map.queryType !== 'select' ||
    !alias?.hasMetadata ||
    map.aliases.length !== 1 ||
    map.joinAttributes.length > 0 ||
    map.relationIdAttributes.length > 0 ||
    map.groupBys.length > 0 ||
    map.havings.length > 0 ||
    map.commonTableExpressions.length > 0 ||
    map.selectDistinct ||
    map.selectDistinctOn.length > 0 ||
    map.lockMode !== undefined ||
    map.useIndex !== undefined ||
    map.comment !== undefined ||
    map.maxExecutionTime > 0 ||
    map.subQuery ||
    map.cache
  ) {
    return undefined;
  }
  return keyOf([
    alias.name,
    alias.metadata.tablePath,
    map.selects,
    map.wheres,
    map.orderBys,
    map.limit,
    map.offset,
    map.take,
    map.skip,
    map.withDeleted,
    map.extraAppendedAndWhereCondition,
    map.aliasNamePrefixingEnabled,
  ]);
}

/** The key's text; none (built every time) for a condition JSON cannot write, such as one holding a cycle. */
function keyOf(parts: unknown[]): string | undefined {
  try {
    return JSON.stringify(parts);
  } catch {
    return undefined;
  }
}

/**
 * The builder's SQL and parameters, as getQueryAndParameters() gives them, its SQL text built once per
 * shape (see `texts`). test/repositories.e2e-spec.ts holds the two to each other for the lists' builders
 * on both engines.
 */
export function queryAndParameters(query: SelectQueryBuilder<ObjectLiteral>): [string, unknown[]] {
  const shape = shapeOf(query);
  let sql = shape === undefined ? undefined : texts.get(shape);
  if (sql === undefined) {
    sql = query.getQuery();
    if (shape !== undefined) texts.set(shape, sql);
  }
  return query.connection.driver.escapeQueryWithParameters(sql, query.getParameters());
}

/**
 * The builder's rows, raw, as getRawMany() reads them, through queryAndParameters(), run by `db`: the
 * manager the builder was made from (a transaction's, or the data source's), which a builder does not
 * tell.
 */
export async function rawRows<T>(query: SelectQueryBuilder<ObjectLiteral>, db: EntityManager): Promise<T[]> {
  const [sql, params] = queryAndParameters(query);
  return db.query<T[]>(sql, params);
}
