import type { TelegramLinkResponse, TelegramStatusResponse } from '@lodestone/contract';
import { describe, expect, it } from 'vitest';
import { queryKeys } from '../../../api/queryKeys';
import { failQuery, renderPage, textOf } from '../../../testing/renderPage';
import { TELEGRAM_TEXT, TelegramLink, TelegramPanel } from './TelegramPanel';

const OFFERED: TelegramStatusResponse = {
  available: true,
  reachable: true,
  bot_username: 'pool_bot',
  linked: false,
  telegram_username: null,
  linked_at: null,
};
const LINK: TelegramLinkResponse = {
  result: true,
  url: 'https://t.me/pool_bot?start=Q2xvZGVzdG9uZS10ZXN0LWNvZGUtb2YtNDMtY2hhcnMx',
  code: 'Q2xvZGVzdG9uZS10ZXN0LWNvZGUtb2YtNDMtY2hhcnMx',
  expires_at: '2026-11-25T17:15:00.000Z',
};
const noop = () => undefined;

describe('Telegram panel', () => {
  it('says so when the pool has no bot, and offers no link', () => {
    const html = renderPage(
      <TelegramLink
        status={{ ...OFFERED, available: false, reachable: false, bot_username: null }}
        pending={null}
        onPending={noop}
      />,
    );
    expect(textOf(html)).toContain(TELEGRAM_TEXT.notOffered);
    expect(html).not.toContain('data-testid="telegram-link"');
  });

  it('offers "Link Telegram" when no chat is linked', () => {
    const html = renderPage(<TelegramLink status={OFFERED} pending={null} onPending={noop} />);
    expect(textOf(html)).toContain('No chat is linked.');
    expect(textOf(html)).toContain('Link Telegram');
  });

  it('shows the deep link and the /start command for a code', () => {
    const html = renderPage(<TelegramLink status={OFFERED} pending={LINK} onPending={noop} />);
    expect(html).toContain(`href="${LINK.url}"`);
    expect(html).toContain('rel="noopener noreferrer"');
    expect(textOf(html)).toContain(`send /start ${LINK.code} to @pool_bot`);
    expect(textOf(html)).toContain('The link works once, until');
    expect(textOf(html)).toContain('New link');
  });

  it('shows the linked chat and an Unlink button', () => {
    const html = renderPage(
      <TelegramLink
        status={{ ...OFFERED, linked: true, telegram_username: 'miner_tg', linked_at: '2026-11-25T16:00:00.000Z' }}
        pending={null}
        onPending={noop}
      />,
    );
    expect(textOf(html)).toMatch(/Linked to @miner_tg since 2026-11-25 \d\d:00\./);
    expect(html).toContain('data-testid="telegram-unlink"');
  });

  it('makes no link while the pool cannot reach its bot, and says so to a linked miner too', () => {
    const down = { ...OFFERED, reachable: false };
    const unlinked = renderPage(<TelegramLink status={down} pending={null} onPending={noop} />);
    expect(textOf(unlinked)).toContain(TELEGRAM_TEXT.unreachable);
    expect(unlinked).not.toContain('data-testid="telegram-link"');
    const linked = renderPage(
      <TelegramLink
        status={{ ...down, linked: true, telegram_username: 'miner_tg' }}
        pending={null}
        onPending={noop}
      />,
    );
    expect(textOf(linked)).toContain('Linked to @miner_tg');
    expect(textOf(linked)).toContain(TELEGRAM_TEXT.unreachable);
  });

  it('names what failed to load', () => {
    const html = renderPage(<TelegramPanel />, { seed: (c) => failQuery(c, queryKeys.telegram, 'Server down') });
    expect(textOf(html)).toContain('Server down');
  });
});
