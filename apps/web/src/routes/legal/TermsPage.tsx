import { Link } from 'react-router';
import { formatPercent } from '../../lib/percent';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { LegalPage, useOperator } from './LegalPage';

const link = 'font-medium text-amber-700 hover:underline dark:text-amber-400';

/** Terms of Service (PPS rewards; stale or invalid shares unpaid; inactive accounts: docs/website.md, Legal pages). */
export default function TermsPage() {
  useDocumentTitle('Terms of Service');
  const { poolName, email, feePercent, soloFeePercent } = useOperator();
  return (
    <LegalPage title="Terms of Service" updated="1 September 2025" testId="terms-page">
      <section>
        <h2>1. The service</h2>
        <p>
          {poolName} is a mining pool: you connect your mining hardware to our stratum servers, and we pay you for the
          work it does. By registering an account or connecting a miner you accept these terms.
        </p>
      </section>
      <section>
        <h2>2. How you are paid</h2>
        <ul>
          <li>
            Rewards are paid by pay-per-share (PPS): every valid share is credited when it is accepted, at its expected
            value, whether or not the pool finds a block.
          </li>
          <li data-testid="terms-unpaid-shares">Stale shares and invalid shares are not paid.</li>
          <li>
            The pool fee{feePercent !== undefined ? ` (${formatPercent(feePercent)})` : ''} is deducted from each
            credit. There is no conversion fee and no withdrawal fee; network transaction fees of payouts are paid by
            the pool.
          </li>
          <li data-testid="terms-solo">
            Solo ports are the exception: shares sent to a solo port are not paid by PPS. A block found there is its
            finder's: when it matures, its value less the solo fee
            {soloFeePercent !== undefined ? ` (${formatPercent(soloFeePercent)})` : ''} is credited to the finder's
            balance; a block that is orphaned pays nothing.
          </li>
          <li>
            Balances are paid out in the coins you choose, once they reach your payout threshold. After a change of
            payout address, payouts of that coin pause for 24 hours.
          </li>
          <li>
            The value of a share depends on network difficulty, block rewards and coin prices, which change all the
            time. Figures shown on the site, including the calculator's, are estimates, not promises.
          </li>
        </ul>
      </section>
      <section>
        <h2>3. Your account</h2>
        <ul>
          <li>Keep your password and two-factor codes to yourself; you are responsible for what is done with them.</li>
          <li>
            You are responsible for your payout addresses. Coins sent to an address you entered cannot be recovered.
          </li>
          <li data-testid="terms-inactive">
            Accounts that have been inactive for 365 days may be deleted; any balance remaining on a deleted account is
            donated to the pool.
          </li>
        </ul>
      </section>
      <section>
        <h2>4. Fair use</h2>
        <p>
          Do not attack the pool, submit shares you did not compute, or try to get paid for work you did not do. We may
          disconnect or ban miners that send malformed or invalid work, and suspend accounts used for abuse or fraud.
          Rented hashrate must use the marketplace port described on the{' '}
          <Link to="/get-started" className={link}>
            Getting Started
          </Link>{' '}
          page.
        </p>
      </section>
      <section>
        <h2>5. Availability</h2>
        <p>
          We run the pool with care but cannot promise it will always be available. We are not liable for earnings lost
          through downtime, network problems, forks, or events on the coins' networks outside our control.
        </p>
      </section>
      <section>
        <h2>6. Changes and contact</h2>
        <p>
          We may update these terms; the date above shows the last change. Questions: {email}. How we handle your
          personal data is explained in the{' '}
          <Link to="/privacy" className={link}>
            Privacy Policy
          </Link>
          .
        </p>
      </section>
    </LegalPage>
  );
}
