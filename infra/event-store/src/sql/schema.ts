/**
 * The event store's tables and its append function, shared by PostgreSQL and PGlite.
 *
 * One append is one statement, `es_append`, so it costs one round trip and is atomic on its own.
 * Inside it the stream's advisory lock is taken first: nothing has assigned the transaction id
 * yet, so per-stream order and transaction-id order agree (readers order by transaction id).
 * The stream's version is the highest position stored for it, read after the lock.
 */
export const SCHEMA_SQL = /* sql */ `
create table if not exists es_events (
  global_position bigint generated always as identity,
  transaction_id xid8 not null default pg_current_xact_id(),
  stream_id text not null,
  stream_position bigint not null,
  event_id uuid not null,
  type text not null,
  schema_version integer not null,
  data jsonb not null,
  metadata jsonb not null,
  recorded_at timestamptz not null default clock_timestamp(),
  primary key (global_position),
  constraint es_events_event_id_key unique (event_id),
  constraint es_events_stream_key unique (stream_id, stream_position)
);

create index if not exists es_events_log_order on es_events (transaction_id, global_position);

-- p_expected: -1 any, -2 the stream must exist, 0 no stream yet, n > 0 exactly version n.
-- Returns outcome 'appended', 'duplicate' (every event id already stored: a retry, nothing
-- written) or 'conflict' (with the stream's current version; nothing written).
create or replace function es_append(p_stream_id text, p_expected bigint, p_events jsonb)
returns table (outcome text, version bigint, tx xid8, seq bigint)
language plpgsql as $$
declare
  v_version bigint;
  v_first_id uuid := (p_events -> 0 ->> 'id')::uuid;
begin
  perform pg_advisory_xact_lock(hashtextextended(p_stream_id, 0));

  select e.stream_position, e.transaction_id, e.global_position, e.stream_id
    into v_version, tx, seq, outcome
    from es_events e where e.event_id = v_first_id;
  if found then
    if outcome <> p_stream_id then
      raise exception 'event % is already stored in stream %', v_first_id, outcome
        using errcode = 'unique_violation';
    end if;
    select e.stream_position, e.transaction_id, e.global_position
      into version, tx, seq
      from es_events e
     where e.event_id = (p_events -> (jsonb_array_length(p_events) - 1) ->> 'id')::uuid;
    outcome := 'duplicate';
    return next;
    return;
  end if;

  select coalesce(max(e.stream_position), 0) into v_version
    from es_events e where e.stream_id = p_stream_id;

  if (p_expected = -2 and v_version = 0) or (p_expected >= 0 and p_expected <> v_version) then
    outcome := 'conflict'; version := v_version; tx := null; seq := null;
    return next;
    return;
  end if;

  with inserted as (
    insert into es_events (stream_id, stream_position, event_id, type, schema_version, data, metadata)
    select p_stream_id, v_version + n, (item ->> 'id')::uuid, item ->> 'type',
           (item ->> 'v')::integer, item -> 'data', item -> 'metadata'
      from jsonb_array_elements(p_events) with ordinality as batch(item, n)
     order by n
    returning stream_position, transaction_id, global_position
  )
  select i.stream_position, i.transaction_id, i.global_position into version, tx, seq
    from inserted i order by i.stream_position desc limit 1;
  outcome := 'appended';
  return next;
end;
$$;
`;

/** Reader filter: only transactions below every running one's id can be read (DESIGN §2). */
export const HORIZON = "transaction_id < pg_snapshot_xmin(pg_current_snapshot())";
