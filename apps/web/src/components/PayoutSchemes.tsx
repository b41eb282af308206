import type { AlgorithmKey } from '@lodestone/domain';
import { usePayoutSchemes } from '../api/public';
import { schemeLines } from '../lib/schemes';
import { Section } from './sections';

/**
 * How each mined coin's shares are valued (GET /v1/pool/schemes, docs/money.md "FPPS"): PPS, or FPPS with the
 * network's average fees per block over 24 hours, or why an FPPS coin is valued by PPS for now; `algorithm`
 * keeps one algorithm's coins; `section` draws it as a section with that title. Nothing while it loads, when the call
 * fails or when no coin is mined yet: the page's own text stands alone.
 */
export function PayoutSchemes({
  algorithm,
  section,
  testId = 'payout-schemes',
}: {
  algorithm?: AlgorithmKey;
  section?: string;
  testId?: string;
}) {
  const schemes = usePayoutSchemes();
  const coins = (schemes.data?.coins ?? []).filter((c) => algorithm === undefined || c.algorithm === algorithm);
  if (coins.length === 0) return null;
  const list = (
    <div className="space-y-2" data-testid={testId}>
      {coins.some((c) => c.scheme === 'fpps') && (
        <p>
          FPPS pays the block subsidy plus the network's average fees per block over the last 24 hours, instead of the
          fees of the block template of the moment: the same work earns the same whether the template was full or empty.
        </p>
      )}
      <ul className="space-y-1">
        {schemeLines(coins).map((line) => (
          <li key={line.coin} data-testid="scheme-line">
            <span className="font-semibold">{line.coin}</span> ({line.where}): {line.scheme}
            {line.detail && <> — {line.detail}</>}
          </li>
        ))}
      </ul>
    </div>
  );
  return section ? <Section title={section}>{list}</Section> : list;
}
