/**
 * The messages of the money forms — an admin's balance adjustment and a miner's payout settings — as
 * plain values and functions without zod: the server refuses with them and the website's forms check
 * with them before sending, so both say the same thing in the same words (docs/admin.md, "Balance
 * adjustments"; docs/money.md, "Payout settings"), and the website's bundle stays free of zod. Each side
 * formats the bounds it names (the server from the catalogue's exact decimals, the page from the API).
 */

/** Value of a balance adjustment: at most this many decimals (docs/admin.md, Balance adjustments). */
export const ADMIN_BALANCE_DECIMALS = 8;

/**
 * The most one balance adjustment may credit or debit, in whole coins of any coin: a correction, never
 * a way to mint money (a JSON 1e21 once credited 10^21 BTC).
 */
export const ADMIN_BALANCE_MAX_COINS = 1_000_000;

export const BALANCE_VALUE_MESSAGES = {
  notNumber: 'Value must be a number, for example 0.00012345 or -0.5',
  zero: 'Value must not be zero',
  decimals: `Value has at most ${ADMIN_BALANCE_DECIMALS} decimals`,
  tooLarge: `Value is at most ${ADMIN_BALANCE_MAX_COINS.toLocaleString('en-US')} coins either way`,
  coinDecimals: (ticker: string, decimals: number) =>
    `${ticker} has only ${decimals} decimal${decimals === 1 ? '' : 's'}`,
} as const;

export const PAYOUT_SETTING_MESSAGES = {
  thresholdNotNumber: (ticker: string) => `The ${ticker} threshold must be a number`,
  thresholdBounds: (ticker: string, min: string, max: string) =>
    `The ${ticker} threshold must be between ${min} and ${max}`,
  intervalNotNumber: (ticker: string) => `The ${ticker} payout interval must be a number of hours`,
  intervalBounds: (ticker: string, min: string, max: string) =>
    `The ${ticker} payout interval must be between ${min} and ${max} hours`,
} as const;
