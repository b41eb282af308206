import type { BlockTemplate } from '../rpc/template.js';

/**
 * A getblocktemplate reply as parsed, for tests: litecoind -regtest's shape at height 2 (regtest bits,
 * the segwit commitment of an empty block), with any field overridden.
 */
export function buildBlockTemplate(overrides: Partial<BlockTemplate> = {}): BlockTemplate {
  return {
    version: 0x20000000,
    previousBlockHash: '5eb1f1dcc341d9cca9e93ea1b93d41e312daf9ce3f81ff48ce2f08436cfe68ba',
    transactions: [],
    coinbaseValue: 5_000_000_000n,
    bits: '207fffff',
    curtime: 1795355416,
    mintime: 1795355412,
    height: 2,
    rules: ['csv', '!segwit', 'taproot'],
    coinbaseAux: '',
    defaultWitnessCommitment: '6a24aa21a9ede2f61c3f71d1defd3fa999dfa36953755c690689799962b48bebd836974e8cf9',
    ...overrides,
  };
}
