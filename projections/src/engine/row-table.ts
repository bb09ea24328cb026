import type { Row } from "@etd/event-store";

/*
 * A read-model table whose rows a projection folds in memory (load the rows a batch touches, evolve
 * them, write them back), declared once as a list of columns: each holds a field of the row, or is
 * derived from the row (in TypeScript, or in SQL from the other columns) and only written. The
 * table's DDL, the select that loads rows, their decoding and the upsert that writes them back all
 * come from that list, so a new column is one line. A column may also name the field of a list
 * answer it fills (`list`): the answer's raw values come from the same list.
 */

type SqlType = "text" | "date" | "timestamptz" | "boolean" | "integer" | "bigint";

interface Stored<R, L> {
  readonly type: SqlType;
  readonly field: keyof R & string;
  /** Never null (`not null`); the first column is the key. */
  readonly required?: true;
  /** The list answer's field this column fills. */
  readonly list?: L;
}

interface Derived<R, L> {
  readonly type: SqlType;
  /** Computed from the row when it is written (type its parameter: an untyped one defeats the check of every field). */
  readonly derive: (row: R) => unknown;
  readonly required?: true;
  readonly list?: L;
}

interface Computed {
  readonly type: SqlType;
  /** An SQL expression over the written columns (as `r.<name>`), computed by the upsert. */
  readonly sql: string;
  readonly required?: true;
}

type Column<R, L> = Stored<R, L> | Derived<R, L> | Computed;

type StoredField<C> = { [K in keyof C]: C[K] extends { readonly field: infer F } ? F : never }[keyof C];
type ListedField<C> = { [K in keyof C]: C[K] extends { readonly list: infer F } ? F : never }[keyof C];

/** A compile error naming the row's fields that no column holds, and the list fields that no column fills. */
type EveryField<R, L, C> = Exclude<keyof R, StoredField<C>> extends never
  ? Exclude<L, ListedField<C>> extends never
    ? unknown
    : { readonly missingColumnsForListFields: Exclude<L, ListedField<C>> }
  : { readonly missingColumnsFor: Exclude<keyof R, StoredField<C>> };

export interface RowTable<R, L extends string = never> {
  /** The columns of `create table`, the first one the primary key. */
  readonly ddl: string;
  /** What a select reads to decode a row: instants as ISO 8601 text in UTC, to the microsecond, under their own name. */
  readonly select: string;
  readonly decode: (row: Row) => R;
  /** Writes rows (their JSON is `$1`), inserting or replacing every column but the key. */
  readonly upsert: (table: string) => string;
  /** A row as the upsert's JSON carries it. */
  readonly record: (row: R) => Record<string, unknown>;
  /** A row's values for the list fields its columns fill: instants to the millisecond, as the lists send them. */
  readonly listed: (row: R) => Record<L, unknown>;
}

const readAs = (name: string, type: SqlType): string => {
  switch (type) {
    case "date":
      return `to_char(${name}, 'YYYY-MM-DD') as ${name}`;
    case "timestamptz":
      return `to_char(${name} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as ${name}`;
    default:
      return name;
  }
};

/** An instant as the lists send it: ISO 8601 UTC to the millisecond (the table keeps microseconds). */
const toMillis = (value: unknown): unknown => (typeof value === "string" && value.length === 27 ? `${value.slice(0, 23)}Z` : value);

/**
 * `rowTable<Row, ListField>()({ column: …, … })`: the row type first, so that every column's field
 * is checked against it, then the list fields (if any) that the columns must fill.
 */
export const rowTable =
  <R, L extends string = never>() =>
  <const C extends Record<string, Column<R, L>>>(columns: C & NoInfer<EveryField<R, L, C>>): RowTable<R, L> => {
    const entries = Object.entries(columns as Record<string, Column<R, L>>);
    const [key] = entries[0]!;
    const stored = entries.filter((entry): entry is [string, Stored<R, L>] => "field" in entry[1]);
    const written = entries.filter(([, column]) => !("sql" in column));
    return {
      ddl: entries
        .map(([name, column], index) => `${name} ${column.type}${index === 0 ? " primary key" : column.required ? " not null" : ""}`)
        .join(",\n    "),
      select: stored.map(([name, column]) => readAs(name, column.type)).join(", "),
      decode: (row) =>
        Object.fromEntries(
          stored.map(([name, column]) => {
            const value = row[name];
            // Drivers answer int8 as text (it may not fit a double); the fields it holds here do.
            if (column.type === "bigint") return [column.field, value === null || value === undefined ? null : Number(value)];
            return [column.field, column.type === "boolean" ? value === true : typeof value === "string" || typeof value === "number" ? value : null];
          }),
        ) as R,
      upsert: (table) => {
        const names = entries.map(([name]) => name);
        const values = entries.map(([name, column]) => ("sql" in column ? column.sql : `r.${name}`));
        return `insert into ${table} (${names.join(", ")})
          select ${values.join(", ")} from jsonb_to_recordset($1::jsonb) as r(${written.map(([name, column]) => `${name} ${column.type}`).join(", ")})
          on conflict (${key}) do update set ${names
            .filter((name) => name !== key)
            .map((name) => `${name} = excluded.${name}`)
            .join(", ")}`;
      },
      record: (row) =>
        Object.fromEntries(written.map(([name, column]) => [name, "field" in column ? row[column.field] : (column as Derived<R, L>).derive(row)])),
      listed: (row) =>
        Object.fromEntries(
          written.flatMap(([, column]) => {
            const { list } = column as Stored<R, L> | Derived<R, L>;
            if (list === undefined) return [];
            const value = "field" in column ? row[column.field] : (column as Derived<R, L>).derive(row);
            return [[list, column.type === "timestamptz" ? toMillis(value) : value]];
          }),
        ) as Record<L, unknown>,
    };
  };
