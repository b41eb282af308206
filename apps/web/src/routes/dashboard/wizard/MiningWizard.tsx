import { ALGORITHMS, type AlgorithmName } from '@lodestone/domain';
import { type FormEvent, type ReactNode, useId, useState } from 'react';
import { useStratum } from '../../../api/queries';
import { AlgorithmLogo } from '../../../components/AlgorithmLogo';
import { inputClass, primaryButtonClass, secondaryButtonClass } from '../../../components/form';
import { TrashIcon } from '../../../components/icons';
import { Modal } from '../../../components/Modal';
import { ChevronLeftIcon, ChevronRightIcon } from '../icons';
import { CopyText } from './CopyText';
import {
  canAddWorker,
  shortStratumUrl,
  stratumUrlFor,
  WORKER_NAME_MAX,
  workerLogin,
  workersForSummary,
} from './wizard';

/**
 * The 'Mining Configuration' wizard (docs/dashboard.md, The screens): 1 pick an algorithm, 2 name the workers, 3 page
 * through what each miner needs (stratum URL, login, password), with 'Start over' and 'Finished'.
 * The steps slide horizontally; the steps out of view are inert, so keyboard and screen readers
 * only meet the current one.
 */
const STEPS = 3;
/** The strip of steps moves one step width per step. */
const SLIDE = ['translate-x-0', '-translate-x-full', '-translate-x-[200%]'] as const;

export function MiningWizard({ account, onClose }: { account: string; onClose: () => void }) {
  const stratum = useStratum();
  const listeners = stratum.data?.listeners ?? [];
  const [step, setStep] = useState(1);
  const [algorithm, setAlgorithm] = useState<AlgorithmName | null>(null);
  const [typed, setTyped] = useState('');
  const [workers, setWorkers] = useState<string[]>([]);
  const [shown, setShown] = useState(0);
  const nameId = useId();

  const served = (name: AlgorithmName) => stratumUrlFor(listeners, name) !== null;
  const pick = algorithm !== null && served(algorithm) ? algorithm : null;
  const url = pick ? stratumUrlFor(listeners, pick) : null;
  const summary = workersForSummary(workers, typed);

  const addTyped = (event?: FormEvent) => {
    event?.preventDefault();
    if (!canAddWorker(workers, typed)) return;
    setWorkers([...workers, typed.trim()]);
    setTyped('');
  };

  const startOver = () => {
    setStep(1);
    setAlgorithm(null);
    setTyped('');
    setWorkers([]);
    setShown(0);
  };

  const current = workers[Math.min(shown, workers.length - 1)] ?? '';

  return (
    <Modal title="Mining Configuration" onClose={onClose} testId="wizard">
      <p className="mb-3 text-xs font-medium text-slate-500 dark:text-slate-400" data-testid="wizard-step">
        Step {step} of {STEPS}
      </p>
      <div className="overflow-hidden">
        <div
          className={`flex transition-transform duration-300 ease-out motion-reduce:transition-none ${SLIDE[step - 1] ?? ''}`}
        >
          <Step active={step === 1}>
            <fieldset>
              <legend className="font-semibold text-slate-900 dark:text-white">Which algorithm will you mine?</legend>
              <div className="mt-3 grid grid-cols-2 gap-2">
                {ALGORITHMS.map(({ name }) => {
                  const available = served(name);
                  const selected = pick === name;
                  return (
                    <label
                      key={name}
                      data-testid={`wizard-algorithm-${name}`}
                      className={`flex items-center gap-2 rounded-lg border px-3 py-2 text-sm font-semibold has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-amber-500 ${
                        available ? 'cursor-pointer' : 'cursor-not-allowed opacity-50'
                      } ${
                        selected
                          ? 'border-amber-500 bg-amber-50 dark:bg-amber-500/10'
                          : 'border-slate-200 hover:bg-slate-50 dark:border-slate-700 dark:hover:bg-slate-800'
                      }`}
                    >
                      <input
                        type="radio"
                        name="wizard-algorithm"
                        value={name}
                        checked={selected}
                        disabled={!available}
                        onChange={() => setAlgorithm(name)}
                        className="sr-only"
                      />
                      <AlgorithmLogo algorithm={name} className="size-5" />
                      <span className="flex-1">{name}</span>
                      {!available && <span className="text-xs font-normal">Not served yet</span>}
                    </label>
                  );
                })}
              </div>
              {stratum.isPending && (
                <p role="status" className="mt-2 text-sm text-slate-500">
                  Loading stratum servers…
                </p>
              )}
              {stratum.error && (
                <p role="alert" className="mt-2 text-sm text-red-700 dark:text-red-400">
                  {stratum.error.message}
                </p>
              )}
            </fieldset>
            <div className="mt-5 flex justify-end">
              <button
                type="button"
                className={primaryButtonClass}
                disabled={pick === null}
                data-testid="wizard-next-1"
                onClick={() => setStep(2)}
              >
                Next
              </button>
            </div>
          </Step>

          <Step active={step === 2}>
            <form noValidate onSubmit={addTyped}>
              <label htmlFor={nameId} className="block font-semibold text-slate-900 dark:text-white">
                Worker name
              </label>
              <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
                One name per mining machine, so you can tell them apart on the dashboard.
              </p>
              <div className="mt-3 flex gap-2">
                <input
                  id={nameId}
                  className={inputClass}
                  placeholder="worker01"
                  required
                  maxLength={WORKER_NAME_MAX}
                  autoCapitalize="none"
                  autoComplete="off"
                  spellCheck={false}
                  value={typed}
                  data-testid="wizard-worker-name"
                  onChange={(event) => setTyped(event.target.value)}
                />
                <button
                  type="submit"
                  className={secondaryButtonClass}
                  disabled={!canAddWorker(workers, typed)}
                  data-testid="wizard-add-worker"
                >
                  Add
                </button>
              </div>
            </form>
            {workers.length > 0 && (
              <ul className="mt-3 space-y-1" aria-label="Workers">
                {workers.map((name) => (
                  <li
                    key={name}
                    className="flex items-center justify-between rounded-md bg-slate-50 px-3 py-1.5 text-sm dark:bg-slate-800"
                  >
                    <span className="font-mono">{name}</span>
                    <button
                      type="button"
                      aria-label={`Remove ${name}`}
                      className="rounded p-1 text-slate-500 hover:text-red-600 focus-visible:outline-2 focus-visible:outline-amber-500"
                      onClick={() => setWorkers(workers.filter((w) => w !== name))}
                    >
                      <TrashIcon className="size-4" />
                    </button>
                  </li>
                ))}
              </ul>
            )}
            <div className="mt-5 flex justify-between">
              <button type="button" className={secondaryButtonClass} onClick={() => setStep(1)}>
                Back
              </button>
              <button
                type="button"
                className={primaryButtonClass}
                disabled={summary.length === 0}
                data-testid="wizard-next-2"
                onClick={() => {
                  setWorkers(summary);
                  setTyped('');
                  setShown(0);
                  setStep(3);
                }}
              >
                Next
              </button>
            </div>
          </Step>

          <Step active={step === 3}>
            <div className="flex items-center justify-between">
              <button
                type="button"
                aria-label="Previous worker"
                className={`${secondaryButtonClass} px-2`}
                disabled={shown <= 0}
                onClick={() => setShown(shown - 1)}
              >
                <ChevronLeftIcon className="size-4" />
              </button>
              <p className="text-sm font-semibold" data-testid="wizard-worker-index" aria-live="polite">
                Worker {Math.min(shown + 1, workers.length)} of {workers.length}
              </p>
              <button
                type="button"
                aria-label="Next worker"
                className={`${secondaryButtonClass} px-2`}
                disabled={shown >= workers.length - 1}
                onClick={() => setShown(shown + 1)}
              >
                <ChevronRightIcon className="size-4" />
              </button>
            </div>
            <dl className="mt-4 space-y-3 text-sm">
              <div>
                <dt className="mb-1 font-medium text-slate-700 dark:text-slate-300">Stratum URL</dt>
                <dd>
                  {url && <CopyText text={url} shown={shortStratumUrl(url)} label="Stratum URL" testId="wizard-url" />}
                </dd>
              </div>
              <div>
                <dt className="mb-1 font-medium text-slate-700 dark:text-slate-300">Login (worker name)</dt>
                <dd>
                  <CopyText text={workerLogin(account, current)} label="Login" testId="wizard-login" />
                </dd>
              </div>
              <div>
                <dt className="mb-1 font-medium text-slate-700 dark:text-slate-300">Password</dt>
                <dd className="text-slate-600 dark:text-slate-400">
                  <code className="rounded bg-slate-100 px-1.5 py-0.5 font-mono dark:bg-slate-800">x</code>, or{' '}
                  <code className="rounded bg-slate-100 px-1.5 py-0.5 font-mono dark:bg-slate-800">d=N</code> to start
                  at difficulty N.
                </dd>
              </div>
            </dl>
            <p className="mt-3 text-xs text-slate-500 dark:text-slate-400">
              The worker appears on the dashboard a few minutes after its first accepted share.
            </p>
            <div className="mt-5 flex justify-between">
              <button
                type="button"
                className={secondaryButtonClass}
                onClick={startOver}
                data-testid="wizard-start-over"
              >
                Start over
              </button>
              <button type="button" className={primaryButtonClass} onClick={onClose} data-testid="wizard-finished">
                Finished
              </button>
            </div>
          </Step>
        </div>
      </div>
    </Modal>
  );
}

function Step({ active, children }: { active: boolean; children: ReactNode }) {
  return (
    <div className="w-full shrink-0 px-0.5" inert={!active} aria-hidden={!active || undefined}>
      {children}
    </div>
  );
}
