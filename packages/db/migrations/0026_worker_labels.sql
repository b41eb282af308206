-- Worker groups (docs/dashboard.md, "Worker groups"): a label a miner gives some of their workers
-- (a room, a customer, a hosting site), which groups them instead of their name's prefix. Null: no
-- label. Removing a worker removes its label with it; a worker that connects again starts without one.
alter table workers
  add column label text
  check (label is null or (char_length(label) between 1 and 40 and label = btrim(label)));
