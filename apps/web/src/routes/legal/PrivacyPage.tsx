import { Link } from 'react-router';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { LegalPage, useOperator } from './LegalPage';

const link = 'font-medium text-amber-700 hover:underline dark:text-amber-400';

/**
 * Privacy Policy. It describes what Lodestone actually stores and why (docs/accounts.md,
 * docs/decisions.md): an operator who adds services (analytics, e-mail providers) must say so here.
 */
export default function PrivacyPage() {
  useDocumentTitle('Privacy Policy');
  const { poolName, email } = useOperator();
  return (
    <LegalPage title="Privacy Policy" updated="1 September 2025" testId="privacy-page">
      <section>
        <h2>1. Who we are</h2>
        <p>
          {poolName} operates this mining pool and is responsible for the personal data described here. Contact: {email}
          .
        </p>
      </section>
      <section>
        <h2>2. What we store</h2>
        <ul>
          <li>
            Your e-mail address, a hash of your password, your two-factor secret if you turn it on, and your settings.
          </li>
          <li>
            Your account names, payout addresses, and the shares, earnings, balances and payouts of your accounts.
          </li>
          <li>
            A security log of sign-ins and changes to your account (time, event and the network address it came from),
            so that you and we can investigate misuse.
          </li>
          <li>If you send a VIP application: the name, e-mail, phone number and description you entered.</li>
          <li>The network addresses of miners connected to our stratum servers, to protect the pool from abuse.</li>
        </ul>
      </section>
      <section>
        <h2>3. Cookies and local storage</h2>
        <p>
          We set one cookie when you log in, holding a random session token, and, if you arrive through a partner link,
          one that remembers that link for 30 days. The site keeps your chosen algorithm, account and theme in your
          browser's local storage. There are no advertising or analytics trackers, and the robot check runs on our own
          servers.
        </p>
      </section>
      <section>
        <h2>4. What others see</h2>
        <p>
          New accounts are anonymous: your account name is not shown in public statistics unless you turn that on in
          your settings. Observer links and API keys give read-only access to one account's figures to whoever holds
          them; you can replace them at any time.
        </p>
      </section>
      <section>
        <h2>5. How long we keep it</h2>
        <p>
          We keep your data while your account exists. When you delete your last account, your e-mail, password,
          two-factor secret and preferences are erased. Records of earnings and payouts are kept, because payouts on
          public blockchains are permanent and we must be able to account for them.
        </p>
      </section>
      <section>
        <h2>6. Your rights</h2>
        <p>
          You can see and change your data in your settings and delete your account there. For a copy of your data or
          any other request, write to {email}. See also our{' '}
          <Link to="/terms" className={link}>
            Terms of Service
          </Link>
          .
        </p>
      </section>
    </LegalPage>
  );
}
