import { buildApp } from '../app.js';
import { listenDualStack } from '../net/dualStack.js';
import { acceptProxyProtocol, ProxyProtocolPolicy } from '../net/proxyProtocol.js';
import { demoAlgorithms } from '../network.js';
import { placeholderContacts } from '../services/site.js';
import { describeStratum } from '../services/stratumInfo.js';
import type { ProcessParts, Running } from './shared.js';

/** A balancer's connection must show its PROXY header (and a browser its first request) by then. */
const PROXY_HEADER_TIMEOUT_MS = 10_000;

/**
 * The API role: the HTTP API and the website on PORT. `stratumPorts` are the ports this process's
 * stratum role bound (the Getting Started page names them); undefined when it runs no stratum role.
 */
export async function startApi(
  parts: ProcessParts,
  running: Running[],
  stratumPorts: number[] | undefined,
): Promise<void> {
  const { config, database, registry, health, log } = parts;
  const listeners = describeStratum(config, stratumPorts);
  const app = await buildApp({
    config,
    database,
    network: { demo: demoAlgorithms(config).length > 0 },
    stratum: () => listeners,
    registry,
    health,
    logger: log.child({ role: 'api' }),
  });
  const proxy = new ProxyProtocolPolicy(config.proxyProtocolFrom);
  if (proxy.enabled) {
    acceptProxyProtocol(app.server, proxy, {
      timeoutMs: PROXY_HEADER_TIMEOUT_MS,
      onRefused: (reason, peer) => log.info({ remote: peer, reason }, 'HTTP connection refused'),
    });
  }
  await listenDualStack(
    config.host,
    async (host) => {
      await app.listen({ port: config.port, host });
    },
    (message) => log.warn(`API: ${message}`),
  );
  running.push({ name: 'api', stop: () => app.close() });
  log.info(`Lodestone is running: ${config.publicUrl}`);
  const placeholders = placeholderContacts(config);
  if (placeholders.length > 0) {
    const vip =
      config.vipEmail === undefined && placeholders.includes('SUPPORT_EMAIL')
        ? `, and VIP applications are e-mailed to ${config.supportEmail}`
        : '';
    log.warn(
      { settings: placeholders },
      `contact details not configured: ${placeholders.join(', ')} still hold built-in placeholders; the website shows "not configured" in their place${vip}`,
    );
  }
}
