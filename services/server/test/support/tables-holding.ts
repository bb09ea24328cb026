import pg from "pg";

/** Every table of every schema the app uses: `schema.table` and how many of its rows hold the marker as text or as bytes. */
export const tablesHolding = async (url: string, needle: string): Promise<{ scanned: number; holders: string[] }> => {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const tables = await client.query<{ table_schema: string; table_name: string }>(
      `select table_schema, table_name from information_schema.tables
        where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema')`,
    );
    const byteColumns = await client.query<{ table_schema: string; table_name: string; column_name: string }>(
      `select table_schema, table_name, column_name from information_schema.columns
        where data_type = 'bytea' and table_schema not in ('pg_catalog', 'information_schema')`,
    );
    const holders: string[] = [];
    for (const { table_schema, table_name } of tables.rows) {
      const name = `${client.escapeIdentifier(table_schema)}.${client.escapeIdentifier(table_name)}`;
      // The row as text (jsonb, text, arrays, everything), case-folded: a search column is lowercased.
      const found = await client.query(`select count(*)::int as n from ${name} t where strpos(lower(t::text), lower($1)) > 0`, [needle]);
      if (found.rows[0].n > 0) holders.push(`${name} (${String(found.rows[0].n)} rows)`);
    }
    // And the raw bytes of every bytea column (hashes, keys): the marker's own bytes anywhere in them.
    for (const { table_schema, table_name, column_name } of byteColumns.rows) {
      const name = `${client.escapeIdentifier(table_schema)}.${client.escapeIdentifier(table_name)}`;
      const found = await client.query(`select count(*)::int as n from ${name} where position(convert_to($1, 'UTF8') in ${client.escapeIdentifier(column_name)}) > 0`, [needle]);
      if (found.rows[0].n > 0) holders.push(`${name}.${column_name} bytes`);
    }
    return { scanned: tables.rows.length, holders };
  } finally {
    await client.end();
  }
};
