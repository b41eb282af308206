import { readFileSync } from 'node:fs';
import { encodeBitcoinHeader } from '@lodestone/pow';
import { describe, expect, it } from 'vitest';
import { meetsTarget, powHash, targetFromBits } from '../pow.js';
import { parseBlock, serializeBlock } from './block.js';
import { hashFromRpcHex, hashToRpcHex, int32LE, uint32LE } from './bytes.js';
import { serializeOutputs } from './coinbase.js';
import { sha256d } from './hash.js';
import { notifyToPrevHash, parseBits, parseHeader, prevHashToNotify } from './header.js';
import { merkleRoot } from './merkle.js';
import { encodeVarInt, pushData, pushNumber } from './serialize.js';

/**
 * The genesis coinbase as CreateGenesisBlock builds it (src/chainparams.cpp of Bitcoin and Litecoin):
 * scriptSig `486604799 << CScriptNum(4) << message`, one output paying `pubkey OP_CHECKSIG`.
 */
function genesisCoinbase(message: string, pubkeyHex: string): Buffer {
  const scriptSig = Buffer.concat([
    pushNumber(486604799),
    pushData(Buffer.from([4])),
    pushData(Buffer.from(message, 'utf8')),
  ]);
  const outputScript = Buffer.concat([pushData(Buffer.from(pubkeyHex, 'hex')), Buffer.from([0xac])]);
  return Buffer.concat([
    int32LE(1),
    encodeVarInt(1),
    Buffer.alloc(32),
    uint32LE(0xffffffff),
    encodeVarInt(scriptSig.length),
    scriptSig,
    uint32LE(0xffffffff),
    serializeOutputs([{ value: 50n * 100_000_000n, script: outputScript }]),
    uint32LE(0),
  ]);
}

const BITCOIN_GENESIS = {
  coinbase: genesisCoinbase(
    'The Times 03/Jan/2009 Chancellor on brink of second bailout for banks',
    '04678afdb0fe5548271967f1a67130b7105cd6a828e03909a67962e0ea1f61deb649f6bc3f4cef38c4f35504e51ec112de5c384df7ba0b8d578a4c702b6bf11d5f',
  ),
  merkleRoot: '4a5e1e4baab89f3a32518a88c31bc87f618f76673e2cc77ab2127b7afdeda33b',
  time: 1231006505,
  nonce: 2083236893,
  bits: 0x1d00ffff,
  hash: '000000000019d6689c085ae165831e934ff763ae46a2a6c172b3f1b60a8ce26f',
};

const LITECOIN_COINBASE = genesisCoinbase(
  'NY Times 05/Oct/2011 Steve Jobs, Apple’s Visionary, Dies at 56',
  '040184710fa689ad5023690c80f3a49c8f13f8d45b8c857fbcbc8bc4a8e4d3eb4b10f4d4604fa08dce601aaf0f470216fe1b51850b4acf21b179c45070ac7b03a9',
);
const LITECOIN_MERKLE_ROOT = '97ddfbbae6be97fd6cdf3e7ca13232a3afff2353e29badfab7f73011edd4ced9';

function genesisHeader(coinbase: Buffer, time: number, nonce: number, bits: number) {
  return {
    version: 1,
    prevHash: Buffer.alloc(32),
    merkleRoot: merkleRoot([sha256d(coinbase)]),
    time,
    bits,
    nonce,
  };
}

/** The header's 80 bytes as a Buffer (the tests compare hex). */
const encodeHeader = (fields: Parameters<typeof encodeBitcoinHeader>[0]) => Buffer.from(encodeBitcoinHeader(fields));

describe('header serialization', () => {
  it('gives the Bitcoin genesis block its hash', () => {
    const g = BITCOIN_GENESIS;
    expect(hashToRpcHex(sha256d(g.coinbase))).toBe(g.merkleRoot);
    const header = encodeHeader(genesisHeader(g.coinbase, g.time, g.nonce, g.bits));
    expect(header).toHaveLength(80);
    expect(hashToRpcHex(sha256d(header))).toBe(g.hash);
    expect(parseHeader(header)).toEqual(genesisHeader(g.coinbase, g.time, g.nonce, g.bits));
  });

  it('gives the Litecoin genesis blocks (main, regtest) their hashes, with a valid scrypt proof of work', () => {
    expect(hashToRpcHex(sha256d(LITECOIN_COINBASE))).toBe(LITECOIN_MERKLE_ROOT);
    const main = encodeHeader(genesisHeader(LITECOIN_COINBASE, 1317972665, 2084524493, 0x1e0ffff0));
    expect(hashToRpcHex(sha256d(main))).toBe('12a765e31ffd4059bada1e25190f6e98c99d9714d334efa41a195a7e7e04bfe2');
    expect(meetsTarget('scrypt', powHash('scrypt', main), targetFromBits(0x1e0ffff0))).toBe(true);
    const regtest = encodeHeader(genesisHeader(LITECOIN_COINBASE, 1296688602, 0, 0x207fffff));
    expect(hashToRpcHex(sha256d(regtest))).toBe('530827f38f93b43ed12af0b3ad25a288dc02ed74d6d7857862df51fc56c416f9');
  });

  it('gives Bitcoin block 100,000 its hash', () => {
    const header = encodeHeader({
      version: 1,
      prevHash: hashFromRpcHex('000000000002d01c1fccc21636b607dfd930d31d01c3a62104612a1719011250'),
      merkleRoot: hashFromRpcHex('f3e94742aca4b5ef85488dc37c06c3282295ffec960994b2c0d5ac2a25a95766'),
      time: 1293623863,
      bits: parseBits('1b04864c'),
      nonce: 274148111,
    });
    expect(hashToRpcHex(sha256d(header))).toBe('000000000003ba27aa200b1cecaad478d2b00432346c3f1f3986da1afd33e506');
  });

  it('writes the previous hash in mining.notify word order', () => {
    const rpc = '000000000002d01c1fccc21636b607dfd930d31d01c3a62104612a1719011250';
    const notify = prevHashToNotify(rpc);
    expect(notify).toBe('1901125004612a1701c3a621d930d31d36b607df1fccc2160002d01c00000000');
    expect(notifyToPrevHash(notify)).toBe(rpc);
    // Byte-swapping each word of the notify form gives the header's internal order.
    const swapped = Buffer.from(notify, 'hex');
    for (let i = 0; i < 32; i += 4) swapped.subarray(i, i + 4).reverse();
    expect(swapped.equals(hashFromRpcHex(rpc))).toBe(true);
  });
});

describe('block serialization', () => {
  it('serializes the Bitcoin genesis block and parses it back', () => {
    const g = BITCOIN_GENESIS;
    const header = encodeHeader(genesisHeader(g.coinbase, g.time, g.nonce, g.bits));
    const bytes = serializeBlock({ header, coinbase: g.coinbase, transactions: [] });
    expect(bytes).toHaveLength(285); // the genesis block is 285 bytes
    const parsed = parseBlock(bytes);
    expect(parsed.headerBytes.equals(header)).toBe(true);
    expect(parsed.transactions).toHaveLength(1);
    expect(hashToRpcHex(parsed.transactions[0]?.txid ?? Buffer.alloc(0))).toBe(g.merkleRoot);
    expect(parsed.transactions[0]?.outputs[0]?.value).toBe(5_000_000_000n);
    expect(parsed.mweb).toBeUndefined();
  });

  it('round-trips a Litecoin MWEB block: transactions, HogEx last, then 0x01 and the MWEB block', () => {
    const template = JSON.parse(
      readFileSync(new URL('../testing/fixtures/litecoind-regtest-gbt-432.json', import.meta.url), 'utf8'),
    ) as { transactions: { data: string; txid: string; hash: string }[]; mweb: string };
    const transactions = template.transactions.map((tx) => Buffer.from(tx.data, 'hex'));
    const header = Buffer.alloc(80, 7);
    const bytes = serializeBlock({
      header,
      coinbase: BITCOIN_GENESIS.coinbase,
      transactions,
      mweb: Buffer.from(template.mweb, 'hex'),
    });
    const parsed = parseBlock(bytes);
    expect(parsed.transactions).toHaveLength(3);
    const [, pegIn, hogEx] = parsed.transactions;
    expect(pegIn?.hasWitness).toBe(true);
    expect(pegIn?.isHogEx).toBe(false);
    expect(hogEx?.isHogEx).toBe(true);
    // txids computed over the serialization without witness and MWEB data match the daemon's.
    expect(parsed.transactions.slice(1).map((tx) => hashToRpcHex(tx.txid))).toEqual(
      template.transactions.map((tx) => tx.txid),
    );
    expect(parsed.mweb?.toString('hex')).toBe(template.mweb);
    expect(bytes.subarray(bytes.length - template.mweb.length / 2 - 1)[0]).toBe(0x01);
    expect(serializeBlock({ header, coinbase: BITCOIN_GENESIS.coinbase, transactions, mweb: parsed.mweb })).toEqual(
      bytes,
    );
  });

  it('refuses truncated and trailing bytes', () => {
    const g = BITCOIN_GENESIS;
    const header = encodeHeader(genesisHeader(g.coinbase, g.time, g.nonce, g.bits));
    const bytes = serializeBlock({ header, coinbase: g.coinbase, transactions: [] });
    expect(() => parseBlock(bytes.subarray(0, bytes.length - 1))).toThrow(/unexpected end/);
    expect(() => parseBlock(Buffer.concat([bytes, Buffer.from([0])]))).toThrow(/unexpected bytes/);
  });
});
