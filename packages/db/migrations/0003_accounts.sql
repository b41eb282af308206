-- Users, their accounts, sessions and the security records around them (docs/accounts.md).
--
-- A user is a person who logs in (e-mail, password, 2FA, preferences). An account is what mines: its
-- username is the `{account}` of the stratum login `{account}.{worker}` and is unique forever, even
-- after the account is removed (so a removed name can never be taken over by someone else's miners).

create table users (
  id bigint generated always as identity primary key,
  -- Always lower case. A deleted user's address is replaced by a tombstone (deleted-{id}@deleted.invalid)
  -- so the real address is gone and can register again.
  email text not null check (email = lower(email) and email <> ''),
  -- Argon2id PHC string. Null: no password login (the demo user; deleted users).
  password_hash text,
  -- TOTP (2FA): the active secret, a secret generated but not yet confirmed with a code, and the last
  -- time step a code was accepted for (a code is never accepted twice).
  totp_secret text,
  totp_pending_secret text,
  totp_last_step bigint,
  -- Preferences (spec 3 "User config"). anonymous: hide the account names from public lists.
  anonymous boolean not null default true,
  send_monthly_reports boolean not null default false,
  offline_worker_notification boolean not null default false,
  telegram_notifications boolean not null default false,
  is_admin boolean not null default false,
  -- Where the visitor came from (landing routes /reddit, /twitter, ...), recorded at registration.
  referral_source text,
  last_login_at timestamptz,
  created_at timestamptz not null default now(),
  deleted_at timestamptz
);

create unique index users_email on users (email);

create table accounts (
  id bigint generated always as identity primary key,
  user_id bigint not null references users (id),
  username text not null check (username ~ '^[A-Za-z0-9_-]{3,32}$'),
  -- Bearer keys: 256 random bits, base64url. Stored as they are (not hashed) because Settings shows
  -- them; they grant read access only (private API, observer dashboard). Null once removed.
  api_key text unique,
  observer_key text unique,
  referral_code text not null check (referral_code ~ '^[A-Z0-9]{4,32}$'),
  referral_show boolean not null default true,
  -- Fraction of the pool fee waived (0.25 = 25% off), from coupons or the operator.
  fee_discount numeric not null default 0 check (fee_discount >= 0 and fee_discount <= 1),
  referred_by bigint references accounts (id),
  created_at timestamptz not null default now(),
  deleted_at timestamptz,
  check ((deleted_at is null) = (api_key is not null and observer_key is not null)),
  check (referred_by is null or referred_by <> id)
);

-- Unique whatever the case ("Alice" and "alice" are one name), removed accounts included. Stratum
-- looks names up exactly (lower(username) = lower($1) and username = $1 uses this index too).
create unique index accounts_username on accounts (lower(username));
create unique index accounts_referral_code on accounts (referral_code);
create index accounts_user on accounts (user_id);
create index accounts_referred_by on accounts (referred_by) where referred_by is not null;

-- Server-side sessions. The browser holds a random token in an HttpOnly cookie; the table holds only
-- its SHA-256, so a copy of the database does not log anyone in.
create table sessions (
  id text primary key check (id ~ '^[0-9a-f]{64}$'),
  user_id bigint not null references users (id),
  -- Set when an admin logs in as this user (the admin issue); null otherwise.
  impersonator_user_id bigint references users (id),
  created_at timestamptz not null default now(),
  last_seen_at timestamptz not null default now(),
  expires_at timestamptz not null,
  revoked_at timestamptz
);

create index sessions_user on sessions (user_id);

-- Security-relevant events, append-only (a trigger refuses UPDATE and DELETE). The admin Logs screen
-- reads it by user e-mail or by account.
create table user_log (
  id bigint generated always as identity primary key,
  user_id bigint not null references users (id),
  account_id bigint references accounts (id),
  time timestamptz not null default now(),
  log_name text not null check (log_name ~ '^[a-z0-9_]{1,64}$'),
  log_value jsonb not null default '{}'
);

create index user_log_user_time on user_log (user_id, time desc);
create index user_log_account_time on user_log (account_id, time desc) where account_id is not null;

create function user_log_append_only() returns trigger language plpgsql as $$
begin
  raise exception 'user_log is append-only' using errcode = '42501';
end
$$;

create trigger user_log_append_only before update or delete on user_log
  for each statement execute function user_log_append_only();

-- Password recovery keys, by the SHA-256 of the key sent by e-mail. Single use, short-lived.
create table password_resets (
  key_hash text primary key check (key_hash ~ '^[0-9a-f]{64}$'),
  user_id bigint not null references users (id),
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  used_at timestamptz
);

create index password_resets_user on password_resets (user_id);

-- Failed logins per e-mail address (registered or not, so the lockout says nothing about which
-- addresses exist). A successful login deletes the row.
create table login_failures (
  email text primary key,
  failures integer not null check (failures > 0),
  last_failure_at timestamptz not null,
  locked_until timestamptz
);

-- Discount coupons, managed by the operator (docs/accounts.md shows the SQL).
create table coupons (
  id bigint generated always as identity primary key,
  code text not null check (code ~ '^[A-Za-z0-9_-]{1,64}$'),
  -- Fraction of the pool fee waived, like accounts.fee_discount.
  discount numeric not null check (discount > 0 and discount <= 1),
  valid_from timestamptz,
  valid_until timestamptz,
  -- Null: unlimited.
  max_uses integer check (max_uses > 0),
  uses integer not null default 0 check (uses >= 0 and (max_uses is null or uses <= max_uses)),
  created_at timestamptz not null default now(),
  check (valid_from is null or valid_until is null or valid_from < valid_until)
);

create unique index coupons_code on coupons (lower(code));

create table coupon_redemptions (
  coupon_id bigint not null references coupons (id),
  account_id bigint not null references accounts (id),
  redeemed_at timestamptz not null default now(),
  primary key (coupon_id, account_id)
);

-- Part of an account's earnings sent to other accounts (spec "Redirect config").
create table redirect_settings (
  account_id bigint not null references accounts (id),
  target_account_id bigint not null references accounts (id),
  percentage numeric not null check (percentage > 0 and percentage <= 100),
  primary key (account_id, target_account_id),
  check (account_id <> target_account_id)
);

-- The percentages of one account add up to at most 100. Checked at commit, so a transaction may
-- replace the whole set in any order.
create function redirect_settings_total() returns trigger language plpgsql as $$
begin
  if (select sum(percentage) from redirect_settings where account_id = new.account_id) > 100 then
    raise exception 'redirect percentages of account % add up to more than 100', new.account_id
      using errcode = '23514', constraint = 'redirect_settings_total';
  end if;
  return null;
end
$$;

create constraint trigger redirect_settings_total after insert or update on redirect_settings
  deferrable initially deferred for each row execute function redirect_settings_total();

-- Visits of the referral landing routes (/reddit, /twitter, ...), counted per source and UTC day.
-- No visitor is identified; the source a registering visitor came from is kept on the user.
create table referral_visits (
  source text not null check (source ~ '^[a-z0-9_-]{1,32}$'),
  day date not null,
  visits integer not null check (visits > 0),
  primary key (source, day)
);

-- Proof-of-work captcha solutions already used, by signature, until their challenge expires: a
-- solved challenge is accepted once.
create table captcha_solutions (
  signature text primary key,
  expires_at timestamptz not null
);

create index captcha_solutions_expires_at on captcha_solutions (expires_at);

-- Secrets the server generates for itself when the operator sets none (the captcha HMAC key), shared
-- by every API process of the pool.
create table server_secrets (
  name text primary key,
  value text not null,
  created_at timestamptz not null default now()
);
