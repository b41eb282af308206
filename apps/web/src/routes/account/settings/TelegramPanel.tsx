import type { TelegramLinkResponse, TelegramStatusResponse } from '@lodestone/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { createTelegramLink, unlinkTelegram } from '../../../api/account';
import { useTelegram } from '../../../api/accountQueries';
import { serverErrorText } from '../../../api/errors';
import { queryKeys } from '../../../api/queryKeys';
import { LoadState, Panel } from '../../../components/AccountPage';
import { FormMessage, linkClass, PendingButton, secondaryButtonClass } from '../../../components/form';
import { formatLocalDateTime } from '../../../lib/format';

/**
 * Telegram in Settings (docs/notifications.md, "Telegram"): link a chat with a one-time code the bot
 * receives as `/start <code>`, see which chat is linked, unlink it.
 */
export function TelegramPanel() {
  const [pending, setPending] = useState<TelegramLinkResponse | null>(null);
  const telegram = useTelegram(pending !== null);
  const queryClient = useQueryClient();
  const linked = telegram.data?.linked ?? false;
  // Linked: the code is spent, polling stops, and the settings are read again (linking turned the
  // Telegram toggle on; the Preferences panel must not save the old value over it).
  useEffect(() => {
    if (!linked || pending === null) return;
    setPending(null);
    void queryClient.invalidateQueries({ queryKey: queryKeys.config });
  }, [linked, pending, queryClient]);
  // Expired: the link is dead; offer a new one instead of polling on.
  useEffect(() => {
    if (pending === null) return;
    const timer = setTimeout(() => setPending(null), Math.max(0, Date.parse(pending.expires_at) - Date.now()));
    return () => clearTimeout(timer);
  }, [pending]);
  return (
    <Panel
      title="Telegram"
      description="Offline-worker alerts and payout notices in a Telegram chat, and /status to see your hashrate there."
      testId="telegram-panel"
    >
      {telegram.data ? (
        <TelegramLink status={telegram.data} pending={telegram.data.linked ? null : pending} onPending={setPending} />
      ) : (
        <LoadState isPending={telegram.isPending} error={telegram.error} />
      )}
    </Panel>
  );
}

export const TELEGRAM_TEXT = {
  notOffered: 'This pool has no Telegram bot.',
  unreachable:
    'The pool cannot reach its Telegram bot right now: no new link can be made, and messages wait until it can.',
  linkFailed: 'Could not create a link. Please try again.',
  unlinkFailed: 'Could not unlink the chat. Please try again.',
} as const;

export function TelegramLink({
  status,
  pending,
  onPending,
}: {
  status: TelegramStatusResponse;
  pending: TelegramLinkResponse | null;
  onPending: (link: TelegramLinkResponse | null) => void;
}) {
  const queryClient = useQueryClient();
  const [error, setError] = useState<string>();
  const refresh = () => queryClient.invalidateQueries({ queryKey: queryKeys.telegram });
  const link = useMutation({
    mutationFn: createTelegramLink,
    onSuccess: (answer) => {
      setError(undefined);
      onPending(answer);
    },
    onError: (failure) => setError(serverErrorText(failure, TELEGRAM_TEXT.linkFailed)),
  });
  const unlink = useMutation({
    mutationFn: unlinkTelegram,
    onSuccess: () => {
      setError(undefined);
      onPending(null);
      void refresh();
    },
    onError: (failure) => setError(serverErrorText(failure, TELEGRAM_TEXT.unlinkFailed)),
  });

  const unreachable = status.available && !status.reachable && (
    <p data-testid="telegram-unreachable" className="text-sm text-amber-700 dark:text-amber-400">
      {TELEGRAM_TEXT.unreachable}
    </p>
  );

  if (status.linked)
    return (
      <div className="flex flex-wrap items-center gap-4">
        <p data-testid="telegram-linked" className="min-w-0 flex-1 text-sm text-slate-700 dark:text-slate-300">
          Linked to {status.telegram_username ? `@${status.telegram_username}` : 'a Telegram chat'}
          {status.linked_at ? ` since ${formatLocalDateTime(Date.parse(status.linked_at))}` : ''}. Send /stop there to
          pause messages, or unlink it here.
        </p>
        {unreachable}
        <PendingButton
          data-testid="telegram-unlink"
          className={secondaryButtonClass}
          onClick={() => unlink.mutate()}
          pending={unlink.isPending}
          label="Unlink"
          pendingLabel="Unlinking…"
        />
        <FormMessage error={error} />
      </div>
    );

  if (!status.available)
    return (
      <p data-testid="telegram-not-offered" className="text-sm text-slate-600 dark:text-slate-400">
        {TELEGRAM_TEXT.notOffered}
      </p>
    );

  if (!status.reachable) return unreachable;

  return (
    <div className="space-y-3 text-sm text-slate-700 dark:text-slate-300">
      {pending ? (
        <div data-testid="telegram-pending" className="space-y-2">
          <p>
            <a href={pending.url} target="_blank" rel="noopener noreferrer" className={linkClass}>
              Open Telegram
            </a>{' '}
            and press Start
            {status.bot_username ? (
              <>
                , or send <code className="break-all">/start {pending.code}</code> to @{status.bot_username}
              </>
            ) : null}
            .
          </p>
          <p className="text-slate-500 dark:text-slate-400">
            The link works once, until {formatLocalDateTime(Date.parse(pending.expires_at))}. This page shows the chat
            as soon as it is linked.
          </p>
        </div>
      ) : (
        <p>No chat is linked.</p>
      )}
      <div className="flex flex-wrap items-center gap-4">
        <PendingButton
          data-testid="telegram-link"
          onClick={() => link.mutate()}
          pending={link.isPending}
          label={pending ? 'New link' : 'Link Telegram'}
          pendingLabel="Creating…"
        />
        <FormMessage error={error} />
      </div>
    </div>
  );
}
