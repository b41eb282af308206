-- The jobs role's leadership on PostgreSQL (docs/deployment.md, "Jobs: active and standby"): one row
-- per lease, held by the active jobs process until `expires_at` and renewed well before it. A standby
-- takes an expired lease with the next `token`; `previous_holder` names the process it took it from,
-- whose database sessions the new holder then ends, so a deposed process that was only frozen cannot
-- finish a statement it had begun. A lease given up on a clean stop (`released`) is taken at once,
-- and its last holder is left alone. Times are the database server's, one clock for every process.
create table jobs_lease (
  name text primary key,
  holder text not null,
  token bigint not null,
  expires_at timestamptz not null,
  previous_holder text,
  released boolean not null default false
);
