import { usernameProblem } from '@lodestone/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { createAccount } from '../../api/account';
import { serverErrorText } from '../../api/errors';
import { queryKeys } from '../../api/queryKeys';
import {
  DialogButtons,
  Form,
  FormMessage,
  PendingButton,
  SelectField,
  secondaryButtonClass,
  TextField,
} from '../../components/form';
import { Modal } from '../../components/Modal';
import { setSelectedAccount } from '../../state/hooks';
import { PlusIcon } from './icons';
import { MESSAGES } from './messages';

/**
 * The account selector (docs/dashboard.md, The screens): a list of the user's accounts and a button opening the
 * create-account modal. A native <select>: every browser and screen reader knows it.
 */
export function AccountSelector({
  accounts,
  value,
  onChange,
}: {
  accounts: readonly string[];
  value: string;
  onChange: (account: string) => void;
}) {
  const [creating, setCreating] = useState(false);
  return (
    <div className="flex flex-wrap items-end gap-2">
      {accounts.length > 0 && (
        <SelectField
          label="Account"
          className="w-48"
          labelClassName="mb-1 block text-xs font-medium text-slate-500 dark:text-slate-400"
          selectClassName="font-semibold"
          value={value}
          data-testid="account-selector"
          onChange={(event) => onChange(event.target.value)}
          options={accounts}
        />
      )}
      <button
        type="button"
        className={secondaryButtonClass}
        data-testid="create-account-open"
        onClick={() => setCreating(true)}
      >
        <PlusIcon className="size-4" />
        New account
      </button>
      {creating && <CreateAccountModal onClose={() => setCreating(false)} />}
    </div>
  );
}

function CreateAccountModal({ onClose }: { onClose: () => void }) {
  const [name, setName] = useState('');
  const [hint, setHint] = useState<string | null>(null);
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: createAccount,
    // Account creation reloads the page; the new account is the one shown after it. The list
    // is fetched first, so the page never sees a selected account that is not in its list (it would
    // fall back to the first account and store that instead).
    onSuccess: async (_, username) => {
      await queryClient.refetchQueries({ queryKey: queryKeys.accounts });
      setSelectedAccount(username);
      window.location.reload();
    },
  });

  const submit = () => {
    // An empty name (after trimming) sends nothing; nor does one the server would refuse
    // (the contract's username rule, in its words).
    const problem = usernameProblem(name);
    if (problem) {
      setHint(problem);
      return;
    }
    if (!mutation.isPending) mutation.mutate(name.trim());
  };

  return (
    <Modal title="Create account" onClose={onClose} testId="create-account-modal">
      <Form onSubmit={submit} className="space-y-4 text-sm">
        <p className="text-slate-600 dark:text-slate-400">
          Each account is a separate mining login (<code>account.worker</code>) with its own balances and payout
          settings: 3 to 32 letters, digits, dashes or underscores.
        </p>
        <TextField
          label="Account name"
          name="username"
          autoCapitalize="none"
          spellCheck={false}
          placeholder="miner02"
          value={name}
          data-testid="create-account-name"
          onChange={(event) => {
            setName(event.target.value);
            setHint(null);
          }}
        />
        <FormMessage error={mutation.error ? serverErrorText(mutation.error, MESSAGES.createAccountFailed) : hint} />
        <DialogButtons onClose={onClose}>
          <PendingButton
            type="submit"
            pending={mutation.isPending}
            label="Create account"
            pendingLabel="Creating…"
            data-testid="create-account-submit"
          />
        </DialogButtons>
      </Form>
    </Modal>
  );
}
