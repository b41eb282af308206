import net from 'node:net';
import {
  Command,
  INETProtocol,
  IPv4ProxyAddress,
  IPv6ProxyAddress,
  V1ProxyProtocol,
  V2ProxyProtocol,
} from 'proxy-protocol-js';
import { normalizeAddress } from './address.js';

/**
 * The PROXY protocol (HAProxy's proxy-protocol.txt, versions 1 and 2): a TCP load balancer in front of
 * the stratum and HTTP ports writes the client's own address before the client's first byte, so that
 * bans, per-address limits and logs see the miner, not the balancer. Only balancers the operator lists
 * may do so: a header from any other address is a forged address and the connection is refused, and
 * a listed balancer must send one (a balancer whose header went missing would otherwise make every
 * miner behind it one address). The header is framed here; its fields are read by proxy-protocol-js.
 */

/** Version 2's binary signature (section 2.2). */
const V2_SIGNATURE = Buffer.from([0x0d, 0x0a, 0x0d, 0x0a, 0x00, 0x0d, 0x0a, 0x51, 0x55, 0x49, 0x54, 0x0a]);
/** Version 2's fixed part: signature, version and command, family and transport, address length. */
const V2_FIXED_BYTES = 16;
const V1_PREFIX = Buffer.from('PROXY ');
/** A version 1 line is at most 107 bytes, CRLF included (section 2.1). */
const V1_MAX_BYTES = 107;
/** Version 2 addresses and TLVs: what a balancer sends is far below this (section 2.2). */
const V2_MAX_ADDRESS_BYTES = 2048;

/**
 * What a connection's first bytes say about who is on the other end: the client's address (the
 * balancer's header, or the peer itself), or why the connection is refused.
 */
export type ProxyVerdict = { address: string } | { refused: string };

/** A header's framing so far: complete (with its length), possible (read on), or not a header. */
type Framing = { complete: number } | 'partial' | 'none';

function framing(bytes: Buffer): Framing {
  const v1 = bytes.subarray(0, V1_PREFIX.length);
  if (V1_PREFIX.subarray(0, v1.length).equals(v1)) {
    if (bytes.length < V1_PREFIX.length) return 'partial';
    const end = bytes.subarray(0, V1_MAX_BYTES).indexOf('\r\n');
    if (end >= 0) return { complete: end + 2 };
    return bytes.length >= V1_MAX_BYTES ? { complete: V1_MAX_BYTES } : 'partial';
  }
  const v2 = bytes.subarray(0, V2_SIGNATURE.length);
  if (V2_SIGNATURE.subarray(0, v2.length).equals(v2)) {
    if (bytes.length < V2_FIXED_BYTES) return 'partial';
    const length = V2_FIXED_BYTES + Math.min(bytes.readUInt16BE(14), V2_MAX_ADDRESS_BYTES + 1);
    return bytes.length >= length ? { complete: length } : 'partial';
  }
  return 'none';
}

/** The client address a complete header names; `peer` where it names none (v1 UNKNOWN, v2 LOCAL). */
function headerAddress(header: Buffer, peer: string): string | undefined {
  if (header[0] === V1_PREFIX[0]) {
    const line = header.toString('latin1');
    if (!line.endsWith('\r\n')) return undefined;
    const parsed = V1ProxyProtocol.parse(line);
    if (parsed.inetProtocol === INETProtocol.UNKNOWN) return peer;
    const family = parsed.inetProtocol === INETProtocol.TCP4 ? 4 : 6;
    return net.isIP(parsed.source.ipAddress) === family ? parsed.source.ipAddress : undefined;
  }
  if (header.length > V2_FIXED_BYTES + V2_MAX_ADDRESS_BYTES) return undefined;
  const parsed = V2ProxyProtocol.parse(new Uint8Array(header));
  if (parsed.command === Command.LOCAL) return peer;
  const { proxyAddress } = parsed;
  if (proxyAddress instanceof IPv4ProxyAddress) return proxyAddress.sourceAddress.address.join('.');
  if (proxyAddress instanceof IPv6ProxyAddress) {
    const bytes = Buffer.from(proxyAddress.sourceAddress.address);
    const groups = Array.from({ length: 8 }, (_, i) => bytes.readUInt16BE(i * 2).toString(16));
    // Node's canonical spelling, so that bans and limits count one address once.
    return normalizeAddress(groups.join(':'));
  }
  // A unix socket or an unspecified family: the balancer speaks for itself.
  return peer;
}

/** The balancers allowed to send PROXY headers, as addresses and CIDR ranges. */
export class ProxyProtocolPolicy {
  private readonly list = new net.BlockList();
  readonly enabled: boolean;

  /** Throws on an entry that is not an IP address or a CIDR range (the configuration checks first). */
  constructor(entries: readonly string[]) {
    for (const entry of entries) {
      const [address = '', prefix] = entry.split('/');
      const family = net.isIP(address);
      if (family === 0) throw new RangeError(`not an IP address or CIDR range: ${entry}`);
      const type = family === 4 ? 'ipv4' : 'ipv6';
      if (prefix === undefined) this.list.addAddress(address, type);
      else this.list.addSubnet(address, Number(prefix), type);
    }
    this.enabled = entries.length > 0;
  }

  trusts(address: string): boolean {
    const ip = normalizeAddress(address);
    const family = net.isIP(ip);
    if (family === 0) return false;
    if (this.list.check(ip, family === 4 ? 'ipv4' : 'ipv6')) return true;
    // A listed IPv4 balancer reaching a dual-stack socket, written as IPv4-mapped IPv6.
    return family === 4 && this.list.check(`::ffff:${ip}`, 'ipv6');
  }

  /**
   * Reads the connection's first bytes until they show whether a header is there, and decides: a
   * listed balancer's header gives the client's address; a header from anyone else, a listed
   * balancer without one, a malformed header or silence for `timeoutMs` refuses the connection.
   * The socket is left paused with the bytes after the header put back: the caller resumes it.
   */
  accept(socket: net.Socket, timeoutMs: number): Promise<ProxyVerdict> {
    const peer = normalizeAddress(socket.remoteAddress);
    const trusted = this.trusts(peer);
    return new Promise((resolve) => {
      let read: Buffer = Buffer.alloc(0);
      /** `rest`: the client's own first bytes after any header, put back for the connection to read. */
      const done = (verdict: ProxyVerdict, rest?: Buffer) => {
        clearTimeout(timer);
        socket.off('data', onData);
        socket.off('close', onClose);
        socket.pause();
        if (rest && rest.length > 0) socket.unshift(rest);
        resolve(verdict);
      };
      const onData = (chunk: Buffer) => {
        read = read.length === 0 ? chunk : Buffer.concat([read, chunk]);
        const frame = framing(read);
        if (frame === 'partial') return;
        if (frame === 'none') {
          if (trusted) done({ refused: 'a listed balancer sent no PROXY header' });
          else done({ address: peer }, read);
          return;
        }
        if (!trusted) {
          done({ refused: 'PROXY header from an address that is not a listed balancer' });
          return;
        }
        let address: string | undefined;
        try {
          address = headerAddress(read.subarray(0, frame.complete), peer);
        } catch {
          address = undefined;
        }
        if (address === undefined) done({ refused: 'malformed PROXY header' });
        else done({ address }, read.subarray(frame.complete));
      };
      const onClose = () => done({ refused: 'closed before its first bytes' });
      const timer = setTimeout(() => done({ refused: 'no first bytes in time' }), timeoutMs);
      timer.unref();
      socket.on('data', onData);
      socket.once('close', onClose);
    });
  }
}

/**
 * Puts the PROXY protocol in front of a server that takes its connections from the 'connection' event
 * (an HTTP server): each connection's header is read and checked first, and the server is then handed
 * the socket with the bytes after the header, its `remoteAddress` the client's (what Fastify's
 * `request.ip` and the rate limits read).
 */
export function acceptProxyProtocol(
  server: net.Server,
  policy: ProxyProtocolPolicy,
  options: { timeoutMs: number; onRefused(reason: string, peer: string): void },
): void {
  const handlers = server.listeners('connection') as ((this: net.Server, socket: net.Socket) => void)[];
  server.removeAllListeners('connection');
  server.on('connection', (socket: net.Socket) => {
    // Until the server has the socket, an error (a reset during the header) is ours to end it on.
    const onError = () => socket.destroy();
    socket.on('error', onError);
    void policy.accept(socket, options.timeoutMs).then((verdict) => {
      if ('refused' in verdict) {
        options.onRefused(verdict.refused, normalizeAddress(socket.remoteAddress));
        socket.destroy();
        return;
      }
      Object.defineProperty(socket, 'remoteAddress', { value: verdict.address, configurable: true });
      socket.off('error', onError);
      for (const handler of handlers) handler.call(server, socket);
      socket.resume();
    });
  });
}
