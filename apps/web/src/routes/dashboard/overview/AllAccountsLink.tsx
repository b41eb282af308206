import { Link } from 'react-router';
import { secondaryButtonClass } from '../../../components/form';

/** Beside the account selector: the overview of every account (docs/dashboard.md, All accounts). */
export function AllAccountsLink() {
  return (
    <Link to="/dashboard/overview" className={secondaryButtonClass} data-testid="all-accounts-link">
      All accounts
    </Link>
  );
}
