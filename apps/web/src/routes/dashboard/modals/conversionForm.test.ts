import type { ConversionConfigResponse } from '@lodestone/contract';
import { describe, expect, it } from 'vitest';
import {
  addConversionCoin,
  clampProportion,
  conversionPayload,
  conversionTotal,
  editedList,
  formFromConversionConfig,
  setAllAlgorithms,
  withEditedList,
} from './conversionForm';

const config = (over: Partial<ConversionConfigResponse> = {}): ConversionConfigResponse => ({
  scrypt: [{ ticker: 'LTC', proportion: 100 }],
  sha256: [{ ticker: 'BTC', proportion: 100 }],
  eaglesong: [{ ticker: 'CKB', proportion: 100 }],
  blake2s: [{ ticker: 'KDA', proportion: 100 }],
  x11: [{ ticker: 'DASH', proportion: 100 }],
  kheavyhash: [{ ticker: 'KAS', proportion: 100 }],
  all_algorithms_setting: false,
  all_algorithms: [],
  ...over,
});

describe('conversion settings form', () => {
  it('turning all algorithms on copies the shared list into every algorithm list', () => {
    const form = formFromConversionConfig(config({ all_algorithms: [{ ticker: 'BTC', proportion: 100 }] }));
    const on = setAllAlgorithms(form, true, 'scrypt');
    expect(on.all).toBe(true);
    for (const list of Object.values(on.lists)) expect(list).toEqual([{ ticker: 'BTC', proportion: 100 }]);
    expect(editedList(on, 'x11')).toEqual([{ ticker: 'BTC', proportion: 100 }]);
  });

  it('an empty shared list starts from the viewed algorithm’s list', () => {
    const on = setAllAlgorithms(formFromConversionConfig(config()), true, 'sha256');
    expect(on.shared).toEqual([{ ticker: 'BTC', proportion: 100 }]);
    expect(on.lists.scrypt).toEqual([{ ticker: 'BTC', proportion: 100 }]);
  });

  it('turning it off keeps every list; edits go to the viewed algorithm only', () => {
    const off = setAllAlgorithms(formFromConversionConfig(config()), false, 'scrypt');
    const edited = withEditedList(off, 'scrypt', [{ ticker: 'DOGE', proportion: 100 }]);
    expect(edited.lists.scrypt).toEqual([{ ticker: 'DOGE', proportion: 100 }]);
    expect(edited.lists.sha256).toEqual([{ ticker: 'BTC', proportion: 100 }]);
  });

  it('with all on, edits of the shared list reach every algorithm', () => {
    const on = setAllAlgorithms(formFromConversionConfig(config()), true, 'scrypt');
    const edited = withEditedList(on, 'x11', [{ ticker: 'ETH', proportion: 100 }]);
    expect(edited.shared).toEqual([{ ticker: 'ETH', proportion: 100 }]);
    expect(edited.lists.kheavyhash).toEqual([{ ticker: 'ETH', proportion: 100 }]);
  });

  it('proportions are 0–100; a new coin takes what is left', () => {
    expect(clampProportion(101)).toBe(100);
    expect(clampProportion(-1)).toBe(0);
    expect(clampProportion(Number.NaN)).toBe(0);
    expect(addConversionCoin([{ ticker: 'LTC', proportion: 60 }], 'DOGE')).toEqual([
      { ticker: 'LTC', proportion: 60 },
      { ticker: 'DOGE', proportion: 40 },
    ]);
    expect(addConversionCoin([], 'BTC')).toEqual([{ ticker: 'BTC', proportion: 100 }]);
    expect(addConversionCoin([{ ticker: 'BTC', proportion: 100 }], 'BTC')).toHaveLength(1);
    expect(
      conversionTotal([
        { ticker: 'A', proportion: 33.33 },
        { ticker: 'B', proportion: 66.67 },
      ]),
    ).toBe(100);
  });

  it('saving needs at least one coin above 0% in each list sent', () => {
    const form = formFromConversionConfig(config());
    expect(conversionPayload(withEditedList(form, 'x11', []))).toEqual({
      ok: false,
      error: 'You must select at least one coin before saving.',
    });
    expect(conversionPayload(withEditedList(form, 'x11', [{ ticker: 'DASH', proportion: 0 }])).ok).toBe(false);
    const on = setAllAlgorithms(form, true, 'scrypt');
    expect(conversionPayload(on)).toEqual({
      ok: true,
      allAlgorithms: true,
      settings: [{ ticker: 'LTC', proportion: 100 }],
    });
    const perAlgorithm = conversionPayload(form);
    expect(perAlgorithm.ok && perAlgorithm.allAlgorithms).toBe(false);
    expect(perAlgorithm.ok && Object.keys(perAlgorithm.settings)).toEqual([
      'scrypt',
      'sha256',
      'eaglesong',
      'blake2s',
      'x11',
      'kheavyhash',
    ]);
  });
});
