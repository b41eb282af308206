-- The fee part of each quarter hour's earnings (docs/money.md, "FPPS"): of every PPS credit's earning
-- legs, the share its valuation says was transaction fees (pps_valuations: block_fees ÷ block_value —
-- FPPS the network's average, PPS the template's fees where its node gave them), exact, with fractions
-- of a unit. What is left of `amount` is the block subsidy, or fees nobody could tell apart from it.
alter table earnings_quarter_hours add column fees numeric not null default 0 check (fees >= 0);
