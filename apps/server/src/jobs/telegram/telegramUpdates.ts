import type { JobDefinition } from '../types.js';
import type { TelegramBot } from './telegramBot.js';

/**
 * Reads and answers the bot's messages (docs/notifications.md, "Telegram"): a short getUpdates poll
 * every 2 seconds, so a command is answered within about that. Singleton: Telegram serves one poller
 * per bot and ends a second one's request with 409.
 */
export function telegramUpdatesJob(telegram: TelegramBot): JobDefinition {
  return {
    name: 'telegram-updates',
    everyMs: 2_000,
    runOnStart: true,
    singleton: true,
    async run({ now, signal, log }) {
      const handled = await telegram.pollOnce(now, signal);
      if (handled > 0) log.debug({ job: 'telegram-updates', handled }, 'Telegram updates handled');
    },
  };
}
