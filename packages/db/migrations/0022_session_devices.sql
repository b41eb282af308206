-- The Settings list of logged-in sessions (docs/accounts.md, "Sessions"): the browser's User-Agent as
-- it was sent at login (cut to 512 characters), and the network it was last used from, never the full
-- address: an IPv4 /24 or an IPv6 /48 ("203.0.113.0/24"), written at login and when the session's
-- expiry slides forward. Null on sessions created before this migration.
alter table sessions
  add column user_agent text check (char_length(user_agent) <= 512),
  add column ip_range text check (char_length(ip_range) <= 64);
