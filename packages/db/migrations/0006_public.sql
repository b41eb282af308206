-- The public website and API (docs/public-api.md): other pools' published profitability for the
-- Profitability page, VIP applications from Home's modal, and the signatures the pool issues for
-- documents it hands out (the Signature verification page).

-- Other pools' published profitability, entered by the operator with SQL (docs/public-api.md). The
-- pool never fetches or invents these rows: with none, the comparison tables hold our own row only.
-- Figures are BTC per day per `hashrate_unit` (as the other pool publishes them); the website shows
-- them in the algorithm's own unit (BTC/TH/s or BTC/PH/s). A period the other pool does not publish
-- stays null and the row is left out of that period's table.
create table pool_comparisons (
  id bigint generated always as identity primary key,
  algorithm text not null
    check (algorithm in ('scrypt', 'sha256', 'eaglesong', 'blake2s', 'x11', 'kheavyhash')),
  pool_name text not null check (length(pool_name) between 1 and 100),
  pool_url text not null check (pool_url ~ '^https?://\S+$' and length(pool_url) <= 300),
  hashrate_unit text not null check (hashrate_unit in ('H/s', 'KH/s', 'MH/s', 'GH/s', 'TH/s', 'PH/s', 'EH/s')),
  profit_24h numeric check (profit_24h >= 0),
  profit_7d numeric check (profit_7d >= 0),
  profit_30d numeric check (profit_30d >= 0),
  -- When the operator last copied the figures (set it on every update).
  updated_at timestamptz not null default now(),
  check (profit_24h is not null or profit_7d is not null or profit_30d is not null)
);

-- One row per pool and algorithm; also serves "the rows of an algorithm".
create unique index pool_comparisons_algorithm_pool on pool_comparisons (algorithm, lower(pool_name));

-- Applications of large miners (POST /v1/email/hashrate). Each one is e-mailed to the operator;
-- `emailed_at` stays null when that failed, so nothing is lost (docs/public-api.md has the query).
create table vip_applications (
  id bigint generated always as identity primary key,
  name text not null check (length(name) between 1 and 200),
  email text not null check (length(email) between 3 and 254),
  -- Dial code and digits, '+44 7911123456'; null when not given.
  phone text check (phone ~ '^\+[0-9]{1,4} [0-9]{7,15}$'),
  operations text not null check (length(operations) between 1 and 5000),
  created_at timestamptz not null,
  emailed_at timestamptz
);

create index vip_applications_created_at on vip_applications (created_at desc);

-- Signatures the pool issued (issueSignature in apps/server/src/services/public/signatures.ts): the
-- signature is HMAC-SHA256 of the document's canonical text under the pool's own key; the page looks
-- it up and compares `document_sha256` with the SHA-256 of the visitor's copy of the document.
create table signatures (
  signature text primary key check (signature ~ '^[0-9a-f]{64}$'),
  kind text not null check (kind ~ '^[a-z][a-z_]{0,31}$'),
  document_sha256 text not null check (document_sha256 ~ '^[0-9a-f]{64}$'),
  issued_at timestamptz not null
);
