-- Alerts the pool raises to its operators by e-mail (docs/admin.md, "Alerts by e-mail"): one row per
-- condition (`key`, e.g. hot-wallet-underfunded:USDC). A condition that starts raises it (raised_at,
-- e-mailed once: notified_at); while it lasts nothing more is sent; when it ends it is cleared
-- (cleared_at), and the next start raises it again. A failed e-mail leaves notified_at empty and is
-- sent again at the next check, so the alert is never lost.
create table operator_alerts (
  key text primary key check (key <> ''),
  subject text not null,
  body text not null,
  raised_at timestamptz not null,
  notified_at timestamptz,
  cleared_at timestamptz
);
