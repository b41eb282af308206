-- Admin tools need a session whose login checked a 2FA code (docs/admin.md): a cookie of a session
-- that never passed 2FA must not become an admin's full power by switching 2FA on afterwards.
-- two_factor_verified_at is when the login of this session checked the user's 2FA code; null for a
-- login without 2FA, a registration, and every session in which an admin is logged in as the user.
-- Turning 2FA off clears it on every session of the user (a later 2FA needs a new login).
alter table sessions add column two_factor_verified_at timestamptz;
alter table sessions add constraint sessions_impersonation_without_two_factor
  check (impersonator_user_id is null or two_factor_verified_at is null);
