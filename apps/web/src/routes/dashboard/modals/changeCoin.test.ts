import { describe, expect, it } from 'vitest';
import { targetCoins } from './changeCoin';

const catalogue = {
  BTC: { name: 'Bitcoin', payouts_enabled: true },
  LTC: { name: 'Litecoin', payouts_enabled: true },
  DOGE: { name: 'Dogecoin', payouts_enabled: true },
  SOL: { name: 'Solana', payouts_enabled: false },
};

describe('change coin list', () => {
  it('leaves out the current coin and unpayable coins, in catalogue order', () => {
    expect(targetCoins(catalogue, 'LTC', '')).toEqual(['BTC', 'DOGE']);
  });

  it('searches ticker and name, whatever the case', () => {
    expect(targetCoins(catalogue, 'LTC', 'BIT')).toEqual(['BTC']);
    expect(targetCoins(catalogue, 'LTC', 'doge')).toEqual(['DOGE']);
    expect(targetCoins(catalogue, 'LTC', 'lite')).toEqual([]);
  });
});
