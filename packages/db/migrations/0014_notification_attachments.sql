-- Files sent with a notification e-mail (docs/notifications.md, "Monthly reports"): the signed PDF
-- statements of a monthly report. They are made once, when the message is enqueued, and stored with
-- it in the same transaction, so every attempt of the sender sends the same bytes (a statement carries
-- the pool's signature of exactly those bytes, recorded in `signatures`). Pruning a sent or failed
-- message deletes its files with it.
create table notification_attachments (
  notification_id bigint not null references notifications (id) on delete cascade,
  -- Order in the e-mail, from 0.
  position integer not null check (position >= 0),
  -- Safe characters only ([A-Za-z0-9._-]): it is shown by mail programs and saved as a file name.
  filename text not null check (filename ~ '^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$'),
  content_type text not null check (content_type ~ '^[a-z]+/[a-z0-9.+-]+$'),
  content bytea not null,
  primary key (notification_id, position)
);
