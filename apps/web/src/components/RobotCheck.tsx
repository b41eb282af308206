/**
 * The robot check of the login, register and password forms: the ALTCHA web component, a
 * self-hosted proof-of-work captcha. The challenge comes from GET /v1/captcha/challenge and the
 * visitor's browser solves it; the solved payload is the form's `captchaToken`.
 *
 * Built for the site's Content-Security-Policy (script-src 'self', no inline scripts): the widget is
 * the `altcha/external` build (no inlined blob: workers, no injected <style>), its stylesheet is
 * bundled as a CSS file, and the proof-of-work workers are emitted by Vite as files under /assets.
 * Only the SHA and PBKDF2 workers are registered: they use WebCrypto, no WebAssembly, so the default
 * policy needs no 'wasm-unsafe-eval'. (ALTCHA's Argon2id/scrypt workers would need it.)
 */
import 'altcha/external';
import 'altcha/altcha.css';
import type {} from 'altcha/types/react';
import Pbkdf2Worker from 'altcha/workers/pbkdf2?worker';
import ShaWorker from 'altcha/workers/sha?worker';
import { type Ref, useEffect, useImperativeHandle, useRef } from 'react';
import { CAPTCHA_CHALLENGE_URL } from '../api/account';

for (const hash of ['SHA-256', 'SHA-384', 'SHA-512']) {
  globalThis.$altcha.algorithms.set(hash, () => new ShaWorker());
  globalThis.$altcha.algorithms.set(`PBKDF2/${hash}`, () => new Pbkdf2Worker());
}

export interface RobotCheckHandle {
  /** Clears the solved state: the visitor solves a fresh challenge (tokens are single-use). */
  reset(): void;
}

interface Props {
  /** The solved token, or null whenever the check is not (or no longer) solved. */
  onTokenChange: (token: string | null) => void;
  ref?: Ref<RobotCheckHandle>;
}

interface StateChangeDetail {
  state: string;
  payload: string | null;
}

export function RobotCheck({ onTokenChange, ref }: Props) {
  const widget = useRef<HTMLElement & { reset?: () => void }>(null);
  const onChange = useRef(onTokenChange);
  onChange.current = onTokenChange;

  useImperativeHandle(
    ref,
    () => ({
      reset() {
        widget.current?.reset?.();
        onChange.current(null);
      },
    }),
    [],
  );

  useEffect(() => {
    const element = widget.current;
    if (!element) return;
    // Every change of state (verified, expired, error, reset) comes through this one event.
    const listener = (event: Event) => {
      const { state, payload } = (event as CustomEvent<StateChangeDetail>).detail;
      onChange.current(state === 'verified' && payload ? payload : null);
    };
    element.addEventListener('statechange', listener);
    return () => element.removeEventListener('statechange', listener);
  }, []);

  return (
    <div
      data-testid="robot-check"
      className="text-sm [--altcha-border-color:var(--color-slate-300)] [--altcha-border-radius:0.5rem] [--altcha-color-base:var(--color-white)] [--altcha-max-width:100%] dark:[--altcha-border-color:var(--color-slate-600)] dark:[--altcha-color-base:var(--color-slate-800)]"
    >
      <altcha-widget ref={widget} challenge={CAPTCHA_CHALLENGE_URL} name="captchaToken" />
    </div>
  );
}
