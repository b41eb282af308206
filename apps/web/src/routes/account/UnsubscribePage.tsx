import { useMutation } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { unsubscribe } from '../../api/account';
import { serverErrorText } from '../../api/errors';
import { AccountPage, Panel } from '../../components/AccountPage';
import { FormMessage, linkClass, primaryButtonClass } from '../../components/form';
import { queryParam } from './forms';
import { unsubscribeTopicText } from './unsubscribe';

/**
 * Where an e-mail's unsubscribe link leads (docs/notifications.md, "Unsubscribing"). Opening the link
 * changes nothing: mail scanners open links on their own, so turning the notification off takes the
 * button. No login: the link's signed token says whose notification it is.
 */
export default function UnsubscribePage() {
  const [search] = useSearchParams();
  const token = queryParam(search, 'token');
  const mutation = useMutation({ mutationFn: unsubscribe });
  const text = unsubscribeTopicText(token ?? '');
  return (
    <AccountPage title="Unsubscribe" width="max-w-xl">
      <Panel title={text.title}>
        {mutation.isSuccess ? (
          <p data-testid="unsubscribed">
            Done: you will not receive these e-mails any more. You can turn them on again in{' '}
            <Link to="/settings" className={linkClass}>
              Settings
            </Link>
            .
          </p>
        ) : token === null ? (
          <FormMessage error="This unsubscribe link is not complete. Open it from the e-mail again, or use Settings." />
        ) : (
          <div className="space-y-4">
            <p data-testid="unsubscribe-question">{text.question}</p>
            <FormMessage
              error={mutation.isError ? serverErrorText(mutation.error, 'Unsubscribing failed.') : undefined}
            />
            <button
              type="button"
              className={primaryButtonClass}
              disabled={mutation.isPending}
              onClick={() => mutation.mutate(token)}
              data-testid="unsubscribe"
            >
              {mutation.isPending ? 'Unsubscribing…' : 'Unsubscribe'}
            </button>
          </div>
        )}
      </Panel>
    </AccountPage>
  );
}
