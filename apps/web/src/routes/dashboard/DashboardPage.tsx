import { algorithmByName } from '@lodestone/domain';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { getMostUsedAlgo } from '../../api/account';
import { useAccounts } from '../../api/accountQueries';
import type { DashboardSource } from '../../api/dashboard';
import { queryKeys } from '../../api/queryKeys';
import { LoadState } from '../../components/AccountPage';
import { pickAccount } from '../../lib/accounts';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { setSelectedAccount, setSelectedAlgorithm, useSelectedAccount, useSelectedAlgorithm } from '../../state/hooks';
import { AccountSelector } from './AccountSelector';
import { configuredCoins, missingPayoutText, missingPayoutTickers } from './banner';
import { type ChartRanges, useChartRanges } from './charts/ChartSection';
import { DashboardFrame } from './DashboardFrame';
import { MissingPayoutBanner } from './MissingPayoutBanner';
import { MiningTab, withoutWorker } from './mining/MiningTab';
import { ChangeCoinModal } from './modals/ChangeCoinModal';
import { ConversionSettingsModal } from './modals/ConversionSettingsModal';
import { PayoutSettingsModal } from './modals/PayoutSettingsModal';
import { AllAccountsLink } from './overview/AllAccountsLink';
import { useConversionConfig, usePaymentConfig } from './queries';
import { RevenueTab } from './revenue/RevenueTab';
import type { TabId } from './Tabs';
import { MiningWizard } from './wizard/MiningWizard';
import { useWizardAutoOpen } from './wizard/useWizardAutoOpen';

type ModalState =
  /** `add`: coins the form starts with, added (the missing-payout banner's). */
  | { kind: 'payout'; add?: readonly string[] }
  | { kind: 'conversion' }
  | { kind: 'changeCoin'; ticker: string }
  | { kind: 'wizard' }
  | null;

/**
 * The miner's dashboard (/dashboard, docs/dashboard.md, The screens): the account selector, the Mining and Revenue
 * tabs, the missing-payout banner, the settings modals and the first-time wizard. Without a session
 * the first call answers 401 and the API client sends the visitor to /login (docs/website.md, Session).
 */
export default function DashboardPage() {
  useDocumentTitle('Dashboard');
  const accounts = useAccounts();
  const [stored] = useSelectedAccount();
  const account = accounts.data ? pickAccount(accounts.data, stored) : null;
  const [tab, setTab] = useState<TabId>('mining');
  const ranges = useChartRanges();

  // The shown account is remembered, so Referrals, Coupon and the next visit open the same one.
  useEffect(() => {
    if (account !== null && account !== stored) setSelectedAccount(account);
  }, [account, stored]);

  if (!accounts.data) {
    return (
      <DashboardFrame title="Dashboard">
        <LoadState isPending={accounts.isPending} error={accounts.error} />
      </DashboardFrame>
    );
  }
  if (account === null) {
    return (
      <DashboardFrame title="Dashboard">
        <p className="text-slate-600 dark:text-slate-400">You have no mining account yet.</p>
        <AccountSelector accounts={[]} value="" onChange={() => undefined} />
      </DashboardFrame>
    );
  }
  return (
    <MinerDashboard key={account} account={account} accounts={accounts.data} tab={tab} onTab={setTab} ranges={ranges} />
  );
}

/**
 * Keyed by account: a change of account starts from a clean state (banner, modals), on the same tab with the same
 * chart ranges.
 */
function MinerDashboard({
  account,
  accounts,
  tab,
  onTab: setTab,
  ranges,
}: {
  account: string;
  accounts: readonly string[];
  tab: TabId;
  onTab: (tab: TabId) => void;
  ranges: ChartRanges;
}) {
  const [algorithmName] = useSelectedAlgorithm();
  const algorithm = algorithmByName(algorithmName)?.key ?? 'scrypt';
  const [modal, setModal] = useState<ModalState>(null);
  const queryClient = useQueryClient();
  const source = useMemo<DashboardSource>(() => ({ kind: 'user', account }), [account]);
  const [, setSearch] = useSearchParams();

  // ── missing-payout banner ──
  const conversion = useConversionConfig(account);
  const payment = usePaymentConfig(account);
  const [bannerClosed, setBannerClosed] = useState(false);
  const missingTickers =
    conversion.data && payment.data
      ? missingPayoutTickers(configuredCoins(conversion.data, algorithm), payment.data)
      : null;
  const bannerText = missingTickers ? missingPayoutText(missingTickers) : null;

  // ── first-time wizard ──
  const wizard = useWizardAutoOpen(account);
  const wizardOpen = modal?.kind === 'wizard' || (modal === null && wizard.shouldOpen);

  const closeModal = () => {
    const closing = modal;
    setModal(null);
    // The banner's check runs again after the payout or conversion settings were saved or closed.
    if (closing?.kind === 'payout' || closing?.kind === 'conversion') {
      setBannerClosed(false);
      void queryClient.invalidateQueries({ queryKey: queryKeys.payment(account) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.conversion(account) });
    }
  };

  const changeAccount = (next: string) => {
    // An open worker is this account's: the next account's dashboard opens on its list.
    setSearch(withoutWorker, { replace: true });
    setSelectedAccount(next);
    // Changing account selects that account's most used algorithm.
    getMostUsedAlgo(next).then(
      ({ algorithm: mostUsed }) => setSelectedAlgorithm(mostUsed),
      (error: unknown) => console.error('Could not read the most used algorithm:', error),
    );
  };

  return (
    <DashboardFrame
      title="Dashboard"
      controls={
        <div className="flex flex-wrap items-end gap-2">
          <AccountSelector accounts={accounts} value={account} onChange={changeAccount} />
          {accounts.length > 1 && <AllAccountsLink />}
        </div>
      }
      banner={
        bannerText !== null &&
        !bannerClosed && (
          <MissingPayoutBanner
            text={bannerText}
            onClose={() => setBannerClosed(true)}
            onConfigure={() => {
              setTab('revenue');
              setModal({ kind: 'payout', add: missingTickers ?? [] });
            }}
          />
        )
      }
      tab={tab}
      onTab={setTab}
      mining={
        <MiningTab
          source={source}
          algorithm={algorithm}
          chartRange={ranges.hashrate}
          actions={{ account, setUpWorkers: () => setModal({ kind: 'wizard' }) }}
        />
      }
      revenue={
        <RevenueTab
          source={source}
          algorithm={algorithm}
          chartRange={ranges.revenue}
          actions={{
            account,
            openConversion: () => setModal({ kind: 'conversion' }),
            openPayout: () => setModal({ kind: 'payout' }),
            changeCoin: (ticker) => setModal({ kind: 'changeCoin', ticker }),
          }}
        />
      }
    >
      {modal?.kind === 'payout' && <PayoutSettingsModal account={account} add={modal.add} onClose={closeModal} />}
      {modal?.kind === 'conversion' && (
        <ConversionSettingsModal account={account} algorithm={algorithmName} onClose={closeModal} />
      )}
      {modal?.kind === 'changeCoin' && (
        <ChangeCoinModal account={account} baseCoin={modal.ticker} onClose={closeModal} />
      )}
      {wizardOpen && (
        <MiningWizard
          account={account}
          onClose={() => {
            wizard.markDone();
            setModal(null);
          }}
        />
      )}
    </DashboardFrame>
  );
}
