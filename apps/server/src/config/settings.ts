import { isIP } from 'node:net';
import { ALGORITHM_KEYS } from '@lodestone/domain';
import { z } from 'zod';
import { COIN_SETTINGS, WALLET_KINDS, WALLET_SETTINGS } from '../chains/registry.js';
import { ANY_ADDRESS } from '../net/dualStack.js';
import { httpUrl, urlWithScheme } from './schemaParts.js';

/**
 * Every setting Lodestone reads, in one table: its environment variable, its key in the config file,
 * its schema, default and the sentence that documents it. `docs/configuration.md` is generated from
 * this table (npm run docs:config) and a test fails when the two disagree.
 */
export interface Setting<T> {
  env: string;
  /** Dotted path in the TOML/JSON config file. */
  file: string;
  schema: z.ZodType<T>;
  default?: T;
  doc: string;
  /** How the default reads in the docs when it is computed at start-up. */
  defaultDoc?: string;
}

const text = z.string().trim().min(1, 'must not be empty');
/** A contact shown on the website; `none` shows none (an empty setting means "not set"). */
const contactText = text.transform((v) => (v.toLowerCase() === 'none' ? '' : v));

function integer(min: number, max: number) {
  return z.preprocess(
    (v) => (typeof v === 'string' && /^\s*-?\d+\s*$/.test(v) ? Number(v) : v),
    z
      .number({ error: `expected an integer from ${min} to ${max}` })
      .int(`expected an integer from ${min} to ${max}`)
      .min(min, `expected an integer from ${min} to ${max}`)
      .max(max, `expected an integer from ${min} to ${max}`),
  );
}

function decimal(min: number, max: number) {
  return z.preprocess(
    (v) => (typeof v === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(v) ? Number(v) : v),
    z
      .number({ error: `expected a number from ${min} to ${max}` })
      .min(min, `expected a number from ${min} to ${max}`)
      .max(max, `expected a number from ${min} to ${max}`),
  );
}

const boolean = z.preprocess(
  (v) => {
    if (typeof v !== 'string') return v;
    const s = v.trim().toLowerCase();
    if (['1', 'true', 'yes', 'on'].includes(s)) return true;
    if (['0', 'false', 'no', 'off'].includes(s)) return false;
    return v;
  },
  z.boolean({ error: 'expected true or false' }),
);

const link = z.object({ label: text, url: httpUrl });

/** An IP address or a CIDR range (`10.0.0.0/8`, `fd00::/64`). */
const ipOrRange = text.refine((value) => {
  const [address = '', prefix, extra] = value.split('/');
  const family = isIP(address);
  if (family === 0 || extra !== undefined) return false;
  if (prefix === undefined) return true;
  return /^\d+$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}, 'expected an IP address or a CIDR range such as 10.0.0.0/8');

/** JSON in the environment, a TOML/JSON value in the file. */
function jsonOrValue<T extends z.ZodType>(schema: T) {
  return z.preprocess((v) => {
    if (typeof v !== 'string') return v;
    try {
      return JSON.parse(v);
    } catch {
      return v;
    }
  }, schema);
}

const anyAlgorithm = z.enum(ALGORITHM_KEYS, { error: `expected one of ${ALGORITHM_KEYS.join(', ')}` });
const difficulty = z.number().positive();

/** One stratum port. Ports, difficulties and kinds are per listener; see docs/configuration.md. */
export const stratumListener = z
  .object({
    algorithm: anyAlgorithm,
    /** 0 lets the system pick a free port (tests). */
    port: z.number().int().min(0).max(65535),
    host: z.string().min(1).default(ANY_ADDRESS),
    kind: z.enum(['standard', 'marketplace', 'xnsub', 'solo']).default('standard'),
    start_difficulty: difficulty.optional(),
    min_difficulty: difficulty.optional(),
    max_difficulty: difficulty.optional(),
    tls: z.boolean().default(false),
    /** What miners are told to connect to, when it differs (DNS name per algorithm, a proxy's port). */
    public_host: z.string().min(1).optional(),
    public_port: z.number().int().min(1).max(65535).optional(),
    /** Connections this port accepts (default: the process's STRATUM_MAX_CONNECTIONS). */
    max_connections: z.number().int().min(1).optional(),
  })
  .strict();
export type StratumListenerSetting = z.output<typeof stratumListener>;

/** A coin mined from real nodes; algorithms without one run on the demo network. */
export const coinSetting = z.discriminatedUnion('algorithm', COIN_SETTINGS, {
  error: `expected algorithm ${ALGORITHM_KEYS.join(', ')}`,
});
export type CoinSetting = z.output<typeof coinSetting>;

/** A hot wallet payouts are sent from (docs/money.md, "Payouts"); a bitcoin wallet may leave `kind` out. */
export const walletSetting = z.discriminatedUnion('kind', WALLET_SETTINGS, {
  error: `expected kind ${WALLET_KINDS.slice(0, -1).join(', ')} or ${WALLET_KINDS.at(-1)}`,
});
export type WalletSetting = z.output<typeof walletSetting>;

/** Default ports on one machine: each algorithm its own four (standard, marketplace, xnsub, solo). */
const DEFAULT_LISTENERS: StratumListenerSetting[] = (
  [
    ['scrypt', 3333],
    ['sha256', 3343],
    ['x11', 3353],
    ['eaglesong', 3363],
    ['blake2s', 3373],
    ['kheavyhash', 3383],
  ] as const
).flatMap(([algorithm, base]) => [
  { algorithm, port: base, host: ANY_ADDRESS, kind: 'standard' as const, tls: false },
  { algorithm, port: base + 1, host: ANY_ADDRESS, kind: 'marketplace' as const, tls: false },
  { algorithm, port: base - 1, host: ANY_ADDRESS, kind: 'xnsub' as const, tls: false },
  { algorithm, port: base + 2, host: ANY_ADDRESS, kind: 'solo' as const, tls: false },
]);

export const SETTINGS = {
  port: {
    env: 'PORT',
    file: 'server.port',
    schema: integer(1, 65535),
    default: 8080,
    doc: 'TCP port of the website and API. A process without the api role (`--role=stratum`, `--role=jobs`) serves its health checks (`/v1/health`, `/v1/health/live`) and `/metrics` there instead.',
  },
  host: {
    env: 'HOST',
    file: 'server.host',
    schema: text,
    default: ANY_ADDRESS,
    doc: 'Address the website and API listen on. `::` (the default) is every IPv6 and IPv4 address, or every IPv4 address on a machine without IPv6; `127.0.0.1` keeps them private to the machine.',
  },
  publicUrl: {
    env: 'PUBLIC_URL',
    file: 'server.public_url',
    schema: httpUrl,
    doc: 'The address people use to reach the site (used in e-mails and to decide whether cookies are Secure).',
    defaultDoc: '`http://localhost:{PORT}`',
  },
  proxyProtocolFrom: {
    env: 'PROXY_PROTOCOL_FROM',
    file: 'server.proxy_protocol_from',
    schema: jsonOrValue(z.array(ipOrRange, { error: 'expected a list of IP addresses or CIDR ranges' })),
    default: [],
    doc: 'TCP load balancers (IP addresses or CIDR ranges, e.g. `["10.0.0.5", "fd00::/64"]`) that send a PROXY protocol header (HAProxy\'s, version 1 or 2) before each connection to the stratum ports and the website: bans, per-address limits, rate limits and logs then see the client\'s address. A listed balancer must send the header; a header from any other address is refused. Empty: no PROXY protocol.',
  },
  trustProxy: {
    env: 'TRUST_PROXY',
    file: 'server.trust_proxy',
    schema: boolean,
    default: false,
    doc: 'Set when a reverse proxy or load balancer sits in front, so client addresses come from `X-Forwarded-For`.',
  },
  bodyLimitBytes: {
    env: 'BODY_LIMIT_BYTES',
    file: 'server.body_limit_bytes',
    schema: integer(1024, 50 * 1024 * 1024),
    default: 1024 * 1024,
    doc: 'Largest request body accepted; larger ones get HTTP 413.',
  },
  metricsEnabled: {
    env: 'METRICS_ENABLED',
    file: 'server.metrics_enabled',
    schema: boolean,
    default: true,
    doc: 'Serve Prometheus metrics at `/metrics`. Restrict that path at your proxy if the port is public.',
  },
  dataDir: {
    env: 'DATA_DIR',
    file: 'database.data_dir',
    schema: text,
    default: './data',
    doc: 'Folder for the embedded database and other files the pool writes. Relative paths start at the working directory. One process at a time may use an embedded database: a second one on the same folder refuses to start and names the first one’s process, and never takes the folder from a live process on the same host, even one stopped for a while. A process whose lock is taken all the same (another host on a shared folder) exits at once with code 78.',
  },
  databaseUrl: {
    env: 'DATABASE_URL',
    file: 'database.url',
    schema: urlWithScheme(
      ['postgres:', 'postgresql:'],
      'use postgres:// or postgresql://, or leave it unset for the embedded database',
    ),
    doc: 'PostgreSQL connection string (`postgres://user:password@host:5432/db`). Unset: the embedded PGlite database in `DATA_DIR`.',
  },
  natsUrl: {
    env: 'NATS_URL',
    file: 'bus.nats_url',
    schema: urlWithScheme(['nats:', 'tls:'], 'expected nats:// or tls://'),
    doc: 'NATS JetStream server for the share bus when the roles run as separate processes. Unset: the in-process bus.',
  },
  natsStreamPrefix: {
    env: 'NATS_STREAM_PREFIX',
    file: 'bus.stream_prefix',
    schema: z.string().regex(/^[A-Z][A-Z0-9_]{0,31}$/, 'expected 1-32 upper-case letters, digits or underscores'),
    default: 'LODESTONE',
    doc: 'Prefix of the JetStream streams and subjects, so several pools can share one NATS server.',
  },
  nodeName: {
    env: 'NODE_NAME',
    file: 'server.node_name',
    schema: z.string().regex(/^[A-Za-z0-9._-]{1,64}$/, 'expected 1-64 letters, digits, dots, dashes or underscores'),
    doc: 'Name of this process in share batches, logs and metrics, and of its share journal (`DATA_DIR/share-journal/NODE_NAME`); set it per process when several stratum processes share a DATA_DIR: a second process on the same journal refuses to start.',
    defaultDoc: 'the host name',
  },
  stratumListeners: {
    env: 'STRATUM_LISTENERS',
    file: 'stratum.listeners',
    schema: jsonOrValue(z.array(stratumListener, { error: 'expected a list of listeners' })),
    default: DEFAULT_LISTENERS,
    doc: 'Stratum ports: a list of `{algorithm, port, host, kind, start_difficulty, min_difficulty, max_difficulty, tls, public_host, public_port, max_connections}` (in the environment, as JSON). `max_connections` caps one port (default: `STRATUM_MAX_CONNECTIONS`). Miners are shown `public_host` (default: `{algorithm}.stratum.{STRATUM_HOST}`, or `STRATUM_HOST` itself when it is `localhost` or an IP address) and `public_port` (default: `port`). `kind` is `standard`, `marketplace` (rental marketplaces such as NiceHash: higher minimum difficulty), `xnsub` (accepts `#xnsub` and `mining.extranonce.subscribe`) or `solo` (the block a worker finds is its own, less `SOLO_FEE_PERCENT`; its shares are not paid by PPS: docs/solo.md).',
    defaultDoc:
      'SCRYPT 3333/3334/3332/3335, SHA256 3343/3344/3342/3345, X11 3353/3354/3352/3355, EAGLESONG 3363/3364/3362/3365, BLAKE2S 3373/3374/3372/3375, KHEAVYHASH 3383/3384/3382/3385 (standard/marketplace/xnsub/solo) on :: (IPv6 and IPv4)',
  },
  stratumTlsKeyFile: {
    env: 'STRATUM_TLS_KEY_FILE',
    file: 'stratum.tls_key_file',
    schema: text,
    doc: 'PEM private key for listeners with `tls = true` (`stratum+ssl`).',
  },
  stratumTlsCertFile: {
    env: 'STRATUM_TLS_CERT_FILE',
    file: 'stratum.tls_cert_file',
    schema: text,
    doc: 'PEM certificate chain for listeners with `tls = true`.',
  },
  stratumMaxConnections: {
    env: 'STRATUM_MAX_CONNECTIONS',
    file: 'stratum.max_connections',
    schema: integer(1, 10_000_000).optional(),
    defaultDoc: 'the open-file limit less a reserve',
    doc: 'Stratum connections this process accepts on all its ports together. The default leaves a tenth of the open-file limit (at least 512) to the website, the API and the database, so a flood of miners cannot take them down; a larger value is lowered to that. Near the cap, connections that authorized no worker within 5 s are closed, and every refusal is counted in the `lodestone_stratum_refused_total` metric and logged as a warning.',
  },
  stratumDrainSeconds: {
    env: 'STRATUM_DRAIN_SECONDS',
    file: 'stratum.drain_seconds',
    schema: integer(0, 600),
    default: 10,
    doc: 'On SIGTERM a stratum process stops accepting connections, asks every miner to reconnect (`client.reconnect`), publishes the shares it answered and waits up to this long for the miners to leave before it closes the rest: a rolling restart costs a miner at most the job it was on (docs/deployment.md, "Restarting stratum nodes"). 0 closes every connection at once.',
  },
  stratumReconnectHost: {
    env: 'STRATUM_RECONNECT_HOST',
    file: 'stratum.reconnect_host',
    schema: text.optional(),
    defaultDoc: 'unset: the address the miner connected to',
    doc: 'Where miners are sent when this stratum process stops: a sibling node that listens on the same ports (`stratum-b.example.com`). Unset, `client.reconnect` names no host, and miners reconnect to the address they used (the restarted node, or another behind the same name or balancer).',
  },
  shareIntervalSeconds: {
    env: 'STRATUM_SHARE_INTERVAL_SECONDS',
    file: 'stratum.share_interval_seconds',
    schema: decimal(1, 300),
    default: 10,
    doc: 'Variable difficulty aims at one share per this many seconds from each worker.',
  },
  coins: {
    env: 'COINS',
    file: 'coins',
    schema: jsonOrValue(z.array(coinSetting, { error: 'expected a list of coins' })),
    default: [],
    doc: 'Coins mined from real nodes, at most one per algorithm. SHA256, SCRYPT and X11: `{ticker, algorithm, daemons, pool_address, rules, poll_interval_ms, pool_tag, payout_scheme}` (`daemons` are JSON-RPC URLs with credentials; Litecoin needs `rules = ["mweb", "segwit"]`; `payout_scheme` is `pps` (the default) or `fpps`: the subsidy plus the network\'s average fees per block over 24 hours, docs/money.md "FPPS"; the ticker `DASH` mines with the masternode payments and coinbase payload, see docs/coins/dash.md). A SCRYPT coin may list `merged = [{ticker, chain_id, daemons, pool_address, poll_interval_ms, coinbase_maturity}]`: aux chains merge-mined with it (Dogecoin: chain id 98, maturity 240; Bellscoin: 16, maturity 30; docs/coins/dogecoin.md). CKB: `{ticker = "CKB", algorithm = "eaglesong", nodes, payout_lock = {code_hash, hash_type, args} or payout_address, poll_interval_ms}` (`nodes` are JSON-RPC URLs; each node\'s `[block_assembler]` must pay that lock, checked at start-up; docs/coins/ckb.md). Kaspa: `{ticker = "KAS", algorithm = "kheavyhash", nodes, pay_address, extra_data, poll_interval_ms}` (`nodes` are kaspad wRPC JSON URLs, `ws://host:18110`; docs/coins/kaspa.md). Kadena: `{ticker = "KDA", algorithm = "blake2s", nodes, chainweb_version, miner = {account, public_keys, predicate}}` (`nodes` are chainweb-node service URLs, the miner must be in each node\'s mining coordination config; docs/coins/kadena.md). Algorithms without a coin run on the demo network.',
  },
  demoWorkers: {
    env: 'DEMO_WORKERS',
    file: 'demo.workers',
    schema: integer(0, 1000),
    default: 6,
    doc: 'Simulated workers of the demo network (spread over the demo algorithms and accounts); 0 disables the fleet.',
  },
  demoAccounts: {
    env: 'DEMO_ACCOUNTS',
    file: 'demo.accounts',
    schema: integer(1, 100),
    default: 3,
    doc: 'Number of demo accounts (`demo1`, `demo2`, …) the simulated workers mine for.',
  },
  demoValuation: {
    env: 'DEMO_VALUATION',
    file: 'demo.valuation',
    schema: z.enum(['reference', 'chain']),
    default: 'reference',
    doc: 'What demo-network shares are valued at. `reference`: a real coin’s network difficulty (docs/money.md, “Demo economics”), so profit per TH/s is of the real coins’ order and a CPU earns next to nothing, while demo blocks are still found at the demo chain’s easy target. `chain`: the demo chain’s own easy start difficulty (it stays there when the chain retargets to a bigger miner), so balances reach payout thresholds within minutes (to try payouts); the profit figures are then absurdly high. No effect on coins mined from daemons.',
  },
  statsWindowMinutes: {
    env: 'STATS_WINDOW_MINUTES',
    file: 'stats.window_minutes',
    schema: integer(1, 1440),
    default: 10,
    doc: 'Pool and worker hashrate are averaged over this many minutes of accepted shares.',
  },
  logLevel: {
    env: 'LOG_LEVEL',
    file: 'log.level',
    schema: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']),
    default: 'info',
    doc: 'Log verbosity: fatal, error, warn, info, debug, trace or silent. Each HTTP request is logged at debug.',
  },
  logFormat: {
    env: 'LOG_FORMAT',
    file: 'log.format',
    schema: z.enum(['auto', 'json', 'pretty']),
    default: 'auto',
    doc: 'How log lines are written on standard output: `json` (one JSON object a line, for a log collector), `pretty` (one readable line each) or `auto` (readable on a terminal, JSON otherwise).',
  },
  poolName: {
    env: 'POOL_NAME',
    file: 'pool.name',
    schema: text,
    default: 'Lodestone',
    doc: 'Name of the pool shown on the website.',
  },
  feePercent: {
    env: 'FEE_PERCENT',
    file: 'pool.fee_percent',
    schema: decimal(0, 100),
    default: 1,
    doc: 'Pool fee in percent of each PPS credit, before an account’s discount.',
  },
  soloFeePercent: {
    env: 'SOLO_FEE_PERCENT',
    file: 'pool.solo_fee_percent',
    schema: decimal(0, 100),
    default: 1,
    doc: 'Solo fee in percent of a block a solo worker finds, kept when the block matures and its finder is credited the rest; an account’s fee discount applies (docs/solo.md). A block keeps the fee in force when it was found.',
  },
  stratumHost: {
    env: 'STRATUM_HOST',
    file: 'pool.stratum_host',
    schema: text,
    default: 'localhost',
    doc: 'Host name miners connect to; each algorithm is published as `{algorithm}.stratum.{host}`.',
  },
  supportEmail: {
    env: 'SUPPORT_EMAIL',
    file: 'pool.support_email',
    schema: z.email('expected an e-mail address'),
    default: 'support@example.com',
    doc: 'Support e-mail address shown in the footer and on contact pages. Left at the placeholder, the website says “not configured (SUPPORT_EMAIL)” instead of showing it, and start-up warns.',
  },
  vipEmail: {
    env: 'VIP_EMAIL',
    file: 'pool.vip_email',
    schema: z.email('expected an e-mail address'),
    doc: 'Where VIP applications (the home page’s form for large miners) are e-mailed; the applicant is the Reply-To.',
    defaultDoc: 'the value of `SUPPORT_EMAIL`',
  },
  phoneEu: {
    env: 'PHONE_EU',
    file: 'pool.phone_eu',
    schema: contactText,
    default: '+00 000 000 000',
    doc: 'European support phone number shown in the footer; `none` shows none. Left at the placeholder, the website says “not configured (PHONE_EU)” instead.',
  },
  phoneUs: {
    env: 'PHONE_US',
    file: 'pool.phone_us',
    schema: contactText,
    default: '+1 000 000 0000',
    doc: 'US support phone number shown in the footer; `none` shows none. Left at the placeholder, the website says “not configured (PHONE_US)” instead.',
  },
  chatHandle: {
    env: 'CHAT_HANDLE',
    file: 'pool.chat_handle',
    schema: contactText,
    default: '@lodestone',
    doc: 'Chat handle (for example a Telegram username, or a URL) shown on contact pages; `none` shows none. Left at the placeholder, the website says “not configured (CHAT_HANDLE)” instead.',
  },
  bannerText: {
    env: 'BANNER_TEXT',
    file: 'site.banner_text',
    schema: z.string(),
    default: '',
    doc: 'Markup shown in the banner bar at the top of the home page; empty hides the bar. The website sanitizes it.',
  },
  blogUrl: {
    env: 'BLOG_URL',
    file: 'site.blog_url',
    schema: httpUrl,
    doc: 'Footer link to the pool’s blog; hidden when unset.',
  },
  statusUrl: {
    env: 'STATUS_URL',
    file: 'site.status_url',
    schema: httpUrl,
    doc: 'Footer link to a status page; hidden when unset.',
  },
  iosAppUrl: {
    env: 'IOS_APP_URL',
    file: 'site.ios_app_url',
    schema: httpUrl,
    doc: 'Footer link to the iOS monitor app; hidden when unset.',
  },
  androidAppUrl: {
    env: 'ANDROID_APP_URL',
    file: 'site.android_app_url',
    schema: httpUrl,
    doc: 'Footer link to the Android monitor app; hidden when unset.',
  },
  socials: {
    env: 'SOCIAL_LINKS',
    file: 'site.socials',
    schema: jsonOrValue(z.array(link, { error: 'expected a list of {label, url}' })),
    default: [],
    doc: 'Footer social links: a list of `{label, url}` (in the environment, as JSON).',
  },
  sessionTtlDays: {
    env: 'SESSION_TTL_DAYS',
    file: 'auth.session_ttl_days',
    schema: integer(1, 365),
    default: 30,
    doc: 'A login lasts this many days after the last visit (sliding expiry); logout and a password change end it at once.',
  },
  captchaHmacKey: {
    env: 'CAPTCHA_HMAC_KEY',
    file: 'auth.captcha_hmac_key',
    schema: z.string().min(32, 'expected at least 32 characters'),
    doc: 'Secret that signs the robot-check (ALTCHA proof-of-work) challenges. Unset: a random key generated once and kept in the database, shared by every API process.',
  },
  captchaMaxNumber: {
    env: 'CAPTCHA_MAX_NUMBER',
    file: 'auth.captcha_max_number',
    schema: integer(1000, 10_000_000),
    default: 100_000,
    doc: 'Work of the robot check: a browser tries on average half this many SHA-256 hashes (about a second at the default).',
  },
  adminRequire2fa: {
    env: 'ADMIN_REQUIRE_2FA',
    file: 'auth.admin_require_2fa',
    schema: boolean,
    default: true,
    doc: 'Admin tools answer only admins who have two-factor authentication enabled and whose session checked a 2FA code at login (403 otherwise). Turn off only for development.',
  },
  smtpUrl: {
    env: 'SMTP_URL',
    file: 'mail.smtp_url',
    schema: urlWithScheme(
      ['smtp:', 'smtps:'],
      'expected smtp://user:password@host:587 or smtps://user:password@host:465',
    ),
    doc: 'Mail server for password recovery e-mails (`smtp://` with STARTTLS, `smtps://` with TLS). Unset: e-mails are written as `.eml` files to `DATA_DIR/outbox` and their path is logged.',
  },
  mailFrom: {
    env: 'MAIL_FROM',
    file: 'mail.from',
    schema: text,
    doc: 'Sender of the e-mails the pool sends, e.g. `Example Pool <no-reply@example.org>`.',
    defaultDoc: '`{POOL_NAME} <no-reply@{host of PUBLIC_URL}>`',
  },
  notificationEmailsPerMinute: {
    env: 'NOTIFICATION_EMAILS_PER_MINUTE',
    file: 'mail.notifications_per_minute',
    schema: integer(1, 10_000),
    default: 60,
    doc: 'Most notification e-mails (offline-worker alerts) the jobs role sends in any minute; the rest wait their turn in the outbox, oldest first. Keeps a burst (a data centre going dark takes hundreds of accounts offline at once) within what the mail server or relay accepts. Password-recovery and admin e-mails are not counted.',
  },
  telegramBotToken: {
    env: 'TELEGRAM_BOT_TOKEN',
    file: 'telegram.bot_token',
    schema: z
      .string()
      .trim()
      .regex(/^[0-9]{1,20}:[A-Za-z0-9_-]{30,64}$/, 'expected the token BotFather gives, like 123456789:AAH…'),
    doc: "Token of the pool's Telegram bot (from @BotFather). Set: miners can link a Telegram chat in Settings and receive their alerts and payout notices there, and the bot answers `/status`; only the jobs role uses it, polling the Bot API for messages (no webhook, no inbound port); API processes need none (they offer Telegram once the jobs role has reached the bot). Unset: Telegram is not offered.",
  },
  telegramApiRoot: {
    env: 'TELEGRAM_API_ROOT',
    file: 'telegram.api_root',
    schema: httpUrl.transform((v) => v.replace(/\/+$/, '')),
    default: 'https://api.telegram.org',
    doc: "Where the Bot API is reached: Telegram's own, or a self-hosted Bot API server.",
  },
  priceFeedUrl: {
    env: 'PRICE_FEED_URL',
    file: 'prices.feed_url',
    schema: httpUrl,
    doc: 'A CoinGecko-compatible "simple price" endpoint (for example `https://api.coingecko.com/api/v3/simple/price`) polled for USD and EUR prices. Unset: the static `PRICES` are used (offline installs and the demo network).',
  },
  priceFeedIds: {
    env: 'PRICE_FEED_IDS',
    file: 'prices.feed_ids',
    schema: jsonOrValue(
      z.record(z.string().regex(/^[A-Z0-9]{2,10}$/), text, { error: 'expected a map of ticker to feed id' }),
    ),
    default: {
      BTC: 'bitcoin',
      LTC: 'litecoin',
      DOGE: 'dogecoin',
      DGB: 'digibyte',
      ETH: 'ethereum',
      CKB: 'nervos-network',
      KDA: 'kadena',
      DASH: 'dash',
      KAS: 'kaspa',
      BELLS: 'bellscoin',
      BCH: 'bitcoin-cash',
      USDC: 'usd-coin',
      SOL: 'solana',
    },
    defaultDoc: 'the CoinGecko ids of the 13 payout coins',
    doc: 'Which id of the price feed each ticker is (a map, JSON in the environment).',
  },
  prices: {
    env: 'PRICES',
    file: 'prices.static',
    schema: jsonOrValue(
      z.record(
        z.string().regex(/^[A-Z0-9]{2,10}$/),
        z
          .union([z.string().regex(/^\d+(\.\d+)?$/, 'expected a decimal price'), z.number().positive()])
          .transform(String),
        { error: 'expected a map of ticker to US dollar price' },
      ),
    ),
    default: {
      BTC: '90000',
      LTC: '90',
      DOGE: '0.16',
      DGB: '0.008',
      ETH: '3000',
      CKB: '0.003',
      KDA: '0.3',
      DASH: '45',
      KAS: '0.05',
      BELLS: '0.3',
      BCH: '500',
      USDC: '1',
      SOL: '140',
      EUR: '1.15',
    },
    defaultDoc: 'demo reference prices (see docs/money.md)',
    doc: 'Static US dollar prices per ticker (`EUR` = dollars per euro), used when `PRICE_FEED_URL` is unset. The defaults are round reference figures for the demo network, not market data: set your own or a feed before paying real miners.',
  },
  priceRefreshSeconds: {
    env: 'PRICE_REFRESH_SECONDS',
    file: 'prices.refresh_seconds',
    schema: integer(10, 86_400),
    default: 300,
    doc: 'How often prices are fetched and recorded.',
  },
  priceMaxAgeSeconds: {
    env: 'PRICE_MAX_AGE_SECONDS',
    file: 'prices.max_age_seconds',
    schema: integer(60, 604_800),
    default: 1800,
    doc: 'A price older than this is stale: PPS credits wait (and an alert is logged) until a fresh price arrives; nothing is credited at a stale price.',
  },
  wallets: {
    env: 'WALLETS',
    file: 'wallets',
    schema: jsonOrValue(z.array(walletSetting, { error: 'expected a list of wallets' })),
    default: [],
    doc: 'Hot wallets payouts are sent from: a list of wallets, each `{kind, ticker, …, min_balance}`. `kind` bitcoin (the default): `{ticker, rpc_url, min_balance}`, a bitcoin-family JSON-RPC wallet (`rpc_url` may end in `/wallet/NAME`). Pool-signed wallets read their private key from `key_file` (hex; refused when other users can read it): `evm` `{ticker, rpc_url, chain_id, key_file, token?, fee_coin, confirmations, max_fee_gwei, replace_after_minutes}` for ETH and ERC-20 tokens such as USDC; `ckb` `{rpc_url, key_file, confirmations}`; `kaspa` `{url, key_file, confirmations}`; `kadena` `{url, network_id, chain_id, key_file, confirmations}` (docs/money.md, "Payouts from pool-signed wallets"). With no coin daemons configured the pool runs the demo network and pays from a demo wallet whose transaction ids start with `demo`; otherwise a coin without a wallet is not paid out (balances keep growing, an alert is logged).',
  },
  payoutsEveryMinutes: {
    env: 'PAYOUTS_EVERY_MINUTES',
    file: 'payouts.every_minutes',
    schema: integer(1, 1440),
    default: 60,
    doc: 'How often the payout job looks for due balances (hourly by default).',
  },
} satisfies Record<string, Setting<unknown>>;

export type SettingKey = keyof typeof SETTINGS;
