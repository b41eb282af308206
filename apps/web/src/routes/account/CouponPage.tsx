import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { redeemCoupon } from '../../api/account';
import { useAccounts } from '../../api/accountQueries';
import { serverErrorText } from '../../api/errors';
import { queryKeys } from '../../api/queryKeys';
import { AccountPage, LoadState, Panel } from '../../components/AccountPage';
import { Form, FormMessage, primaryButtonClass, SelectField, TextField } from '../../components/form';
import { pickAccount } from '../../lib/accounts';
import { useSelectedAccount } from '../../state/hooks';
import { couponForm, queryParam, validateCoupon } from './forms';
import { MESSAGES } from './messages';

/**
 * Coupon (docs/decisions.md, Account pages (website)): one code field. The discount applies to one account: `?account=`
 * when given, else the dashboard's selected account, else the first; a chooser appears when there are several.
 */
export default function CouponPage() {
  const [search] = useSearchParams();
  const [selectedAccount] = useSelectedAccount();
  const accounts = useAccounts();
  const [chosen, setChosen] = useState<string | null>(null);
  const account = pickAccount(accounts.data ?? [], chosen, queryParam(search, 'account'), selectedAccount);
  const [coupon, setCoupon] = useState('');
  const [message, setMessage] = useState<{ error?: string; success?: string }>({});
  const queryClient = useQueryClient();

  const mutation = useMutation({
    mutationFn: ({ name, form }: { name: string; form: FormData }) => redeemCoupon(name, form),
    onSuccess: () => {
      setMessage({ success: MESSAGES.couponApplied });
      setCoupon('');
      // The fee discount shows in Settings.
      void queryClient.invalidateQueries({ queryKey: queryKeys.config });
    },
    onError: (failure) => setMessage({ error: serverErrorText(failure, MESSAGES.couponFailed) }),
  });

  const submit = () => {
    if (mutation.isPending || account === null) return;
    const problem = validateCoupon(coupon);
    setMessage(problem ? { error: problem } : {});
    if (problem === null) mutation.mutate({ name: account, form: couponForm(coupon) });
  };

  return (
    <AccountPage title="Coupon" intro="Redeem a coupon code for a discount on the pool fee." width="max-w-xl">
      <Panel title="Redeem a coupon">
        {accounts.data ? (
          <Form onSubmit={submit} className="space-y-4" data-testid="coupon-form">
            {accounts.data.length > 1 && (
              <SelectField
                label="Account"
                value={account ?? ''}
                onChange={(event) => setChosen(event.target.value)}
                options={accounts.data}
              />
            )}
            <TextField
              label="Coupon code"
              name="coupon"
              autoCapitalize="none"
              spellCheck={false}
              required
              value={coupon}
              onChange={(event) => setCoupon(event.target.value)}
            />
            <FormMessage error={message.error} success={message.success} />
            <button type="submit" className={primaryButtonClass} disabled={mutation.isPending || account === null}>
              {mutation.isPending ? 'Applying…' : 'Apply coupon'}
            </button>
          </Form>
        ) : (
          <LoadState isPending={accounts.isPending} error={accounts.error} />
        )}
      </Panel>
    </AccountPage>
  );
}
