/** What both a DataSource and a transaction's EntityManager offer: raw SQL with parameters. */
export interface Sql {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  query(sql: string, parameters?: unknown[]): Promise<any>;
}
