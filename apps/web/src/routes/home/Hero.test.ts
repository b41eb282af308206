import { describe, expect, it } from 'vitest';
import { demoValuationText } from './Hero';

describe('the demo notice', () => {
  it('follows the valuation in force: real-pool profits at reference valuation, absurd ones at the chain’s', () => {
    expect(demoValuationText('reference')).toContain("profits are of a real pool's order");
    const chain = demoValuationText('chain');
    expect(chain).not.toContain("real pool's order");
    expect(chain).toContain('absurdly high and mean nothing');
    expect(chain).toContain('payout thresholds within minutes');
  });
});
