/** What only the miner may do on this tab; the observer dashboard passes none (read-only). */
export interface RevenueActions {
  account: string;
  openConversion: () => void;
  openPayout: () => void;
  changeCoin: (ticker: string) => void;
}
