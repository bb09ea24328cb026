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
  -- Tamper evidence (issue 14, ADR 0021): covers the stored fields and the stream predecessor's hash.
  hash bytea not null,
  primary key (global_position),
  constraint es_events_event_id_key unique (event_id),
  constraint es_events_stream_key unique (stream_id, stream_position)
);

create index if not exists es_events_log_order on es_events (transaction_id, global_position);

-- One field as its length in bytes, a colon and its text: no two different events spell the
-- same bytes, whatever their fields contain.
create or replace function es_part(p_text text) returns text
language sql immutable as $f$ select octet_length(p_text)::text || ':' || p_text $f$;

-- The digest of an event as stored: what an export carries, so that a verifier without the
-- database rebuilds it. jsonb's text is PostgreSQL's normalised form of the stored value.
create or replace function es_event_digest(p_stream_id text, p_position bigint, p_event_id uuid, p_type text,
                                           p_version integer, p_data jsonb, p_metadata jsonb, p_recorded_at timestamptz)
returns bytea language sql stable as $f$
  select sha256(convert_to(
    es_part(p_stream_id) || es_part(p_position::text) || es_part(p_event_id::text) || es_part(p_type) ||
    es_part(p_version::text) || es_part(p_data::text) || es_part(p_metadata::text) ||
    es_part(to_char(p_recorded_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')),
    'UTF8'))
$f$;

-- The first event of a stream chains to this.
create or replace function es_chain_start() returns bytea
language sql immutable as $f$ select decode(repeat('00', 32), 'hex') $f$;

-- A log from before the chain gets the column and its hashes once, stream by stream, in order.
-- Only then: an ALTER TABLE on every start would lock out every reader and appender meanwhile.
do $b$
declare
  r record;
  v_stream text;
  v_prev bytea;
begin
  if exists (select 1 from pg_attribute where attrelid = 'es_events'::regclass and attname = 'hash' and attnotnull and not attisdropped) then
    return;
  end if;
  alter table es_events add column if not exists hash bytea;
  for r in select * from es_events order by stream_id, stream_position loop
    if v_stream is distinct from r.stream_id then
      v_stream := r.stream_id;
      v_prev := es_chain_start();
    end if;
    if r.hash is null then
      v_prev := sha256(v_prev || es_event_digest(r.stream_id, r.stream_position, r.event_id, r.type, r.schema_version,
                                                 r.data, r.metadata, r.recorded_at));
      update es_events set hash = v_prev where global_position = r.global_position;
    else
      v_prev := r.hash;
    end if;
  end loop;
  alter table es_events alter column hash set not null;
end
$b$;

-- The hashes of a batch appended after position p_version, each chaining to the one before it
-- in the stream's order, the first to p_previous. A counted loop over the array's indexes, not a
-- query over its elements: a query (with its sort) per append took a third of this function's
-- time, for batches that are mostly one event (issue 28, P13).
create or replace function es_stream_hashes(p_stream_id text, p_version bigint, p_previous bytea, p_events jsonb, p_at timestamptz)
returns bytea[] language plpgsql stable as $f$
declare
  v_hash bytea := p_previous;
  v_hashes bytea[] := '{}';
  v_item jsonb;
  v_n integer;
begin
  for v_n in 0 .. jsonb_array_length(p_events) - 1 loop
    v_item := p_events -> v_n;
    v_hash := sha256(v_hash || es_event_digest(p_stream_id, p_version + v_n + 1, (v_item ->> 'id')::uuid, v_item ->> 'type',
                                               (v_item ->> 'v')::integer, v_item -> 'data', v_item -> 'metadata', p_at));
    v_hashes := v_hashes || v_hash;
  end loop;
  return v_hashes;
end
$f$;

-- The global chain (ADR 0021): every event in log order (transaction id, global position), each
-- link SHA-256(previous link || the event's stream hash). A transaction cannot link to another
-- that has not committed, so the chain is extended over committed events only, by es_seal, at
-- the start of each append and by the sealer when the log is quiet; es_chain_head is its end.
create table if not exists es_chain (
  global_position bigint primary key,
  hash bytea not null
);

create table if not exists es_chain_head (
  singleton boolean primary key default true check (singleton),
  transaction_id xid8 not null,
  global_position bigint not null,
  hash bytea not null,
  sealed bigint not null
);

insert into es_chain_head (transaction_id, global_position, hash, sealed)
values ('0'::xid8, 0, es_chain_start(), 0) on conflict do nothing;

-- Extends the global chain over up to p_limit committed events past its head; returns how many.
-- One sealer at a time (a transaction lock, so two processes may both call it): p_wait false
-- gives up at once when another transaction holds it, which is what an append wants.
create or replace function es_seal(p_limit integer, p_wait boolean) returns integer
language plpgsql as $f$
declare
  v_head es_chain_head;
  v_horizon xid8;
  v_hash bytea;
  v_tx xid8;
  v_positions bigint[] := '{}';
  v_hashes bytea[] := '{}';
  r record;
begin
  if p_wait then
    perform pg_advisory_xact_lock(7340003);
  elsif not pg_try_advisory_xact_lock(7340003) then
    return 0;
  end if;
  select * into v_head from es_chain_head;
  v_hash := v_head.hash;
  -- The horizon once, not per row: each snapshot taken contends with every committing append.
  v_horizon := pg_snapshot_xmin(pg_current_snapshot());
  for r in select e.transaction_id, e.global_position, e.hash from es_events e
            where e.transaction_id < v_horizon
              and (e.transaction_id, e.global_position) > (v_head.transaction_id, v_head.global_position)
            order by e.transaction_id, e.global_position
            limit p_limit loop
    v_hash := sha256(v_hash || r.hash);
    v_positions := v_positions || r.global_position;
    v_hashes := v_hashes || v_hash;
    v_tx := r.transaction_id;
  end loop;
  if cardinality(v_positions) = 0 then
    return 0;
  end if;
  insert into es_chain (global_position, hash) select * from unnest(v_positions, v_hashes);
  update es_chain_head
     set transaction_id = v_tx, global_position = v_positions[cardinality(v_positions)], hash = v_hash,
         sealed = sealed + cardinality(v_positions);
  return cardinality(v_positions);
end
$f$;

-- p_expected: -1 any, -2 the stream must exist, 0 no stream yet, n > 0 exactly version n.
-- Returns outcome 'appended', 'duplicate' (every event id already stored: a retry, nothing
-- written) or 'conflict' (with the stream's current version; nothing written).
create or replace function es_append(p_stream_id text, p_expected bigint, p_events jsonb)
returns table (outcome text, version bigint, tx xid8, seq bigint)
language plpgsql as $$
declare
  v_version bigint;
  v_first_id uuid := (p_events -> 0 ->> 'id')::uuid;
  v_hash bytea;
  v_hashes bytea[];
  -- One moment for the whole batch: the hash covers it, so it is fixed before hashing.
  v_at timestamptz := clock_timestamp();
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

  select e.stream_position, e.hash into v_version, v_hash
    from es_events e where e.stream_id = p_stream_id
   order by e.stream_position desc limit 1;
  v_version := coalesce(v_version, 0);
  v_hash := coalesce(v_hash, es_chain_start());

  if (p_expected = -2 and v_version = 0) or (p_expected >= 0 and p_expected <> v_version) then
    outcome := 'conflict'; version := v_version; tx := null; seq := null;
    return next;
    return;
  end if;

  v_hashes := es_stream_hashes(p_stream_id, v_version, v_hash, p_events, v_at);

  with inserted as (
    insert into es_events (stream_id, stream_position, event_id, type, schema_version, data, metadata, recorded_at, hash)
    select p_stream_id, v_version + n, (item ->> 'id')::uuid, item ->> 'type',
           (item ->> 'v')::integer, item -> 'data', item -> 'metadata', v_at, v_hashes[n]
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
