/** What every payout-address checker shares: the networks, the checker's shape and its refusal. */

export const PAYOUT_NETWORKS = ['mainnet', 'testnet', 'regtest'] as const;
export type PayoutNetwork = (typeof PAYOUT_NETWORKS)[number];

/** Thrown inside a checker with the reason; validatePayoutAddress turns it into a refusal. */
export class Invalid extends Error {}

/** Runs a decoder from ../bitcoin/address.ts, whose refusals are TypeErrors, as a reason. */
export function attempt<T>(decode: () => T): T {
  try {
    return decode();
  } catch (error) {
    if (error instanceof TypeError) throw new Invalid(error.message);
    throw error;
  }
}

export type Checker = (address: string, network: PayoutNetwork) => void;
