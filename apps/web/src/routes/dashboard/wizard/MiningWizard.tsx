import { ALGORITHMS, type AlgorithmName } from '@lodestone/domain';
import { type ReactNode, useId, useState } from 'react';
import { useSite, useStratum } from '../../../api/queries';
import { AlgorithmLogo } from '../../../components/AlgorithmLogo';
import { Form, inputClass, primaryButtonClass, secondaryButtonClass } from '../../../components/form';
import { TrashIcon } from '../../../components/icons';
import { Modal } from '../../../components/Modal';
import { ChevronLeftIcon, ChevronRightIcon } from '../icons';
import { CopyText } from './CopyText';
import {
  canAddWorker,
  type MiningMode,
  modeShown,
  modesFor,
  shortStratumUrl,
  soloSentence,
  stratumUrlFor,
  WORKER_NAME_MAX,
  workerLogin,
  workersForSummary,
} from './wizard';

/**
 * The 'Mining Configuration' wizard (docs/dashboard.md, The screens): 1 pick an algorithm, and where it has a solo
 * port, 'Pool (PPS)' or 'Solo', 2 name the workers, 3 page through what each miner needs (stratum URL, login,
 * password), with 'Start over' and 'Finished'.
 * The steps slide horizontally; the steps out of view are inert, so keyboard and screen readers
 * only meet the current one.
 */
const STEPS = 3;
/** The strip of steps moves one step width per step. */
const SLIDE = ['translate-x-0', '-translate-x-full', '-translate-x-[200%]'] as const;
const ALGORITHM_NAMES = ALGORITHMS.map(({ name }) => name);

export function MiningWizard({ account, onClose }: { account: string; onClose: () => void }) {
  const stratum = useStratum();
  const soloFee = useSite().data?.solo_fee_percent;
  const listeners = stratum.data?.listeners ?? [];
  const [step, setStep] = useState(1);
  const [algorithm, setAlgorithm] = useState<AlgorithmName | null>(null);
  const [mode, setMode] = useState<MiningMode>('pool');
  const [typed, setTyped] = useState('');
  const [workers, setWorkers] = useState<string[]>([]);
  const [shown, setShown] = useState(0);
  const nameId = useId();

  const served = (name: AlgorithmName) => modesFor(listeners, name).length > 0;
  const pick = algorithm !== null && served(algorithm) ? algorithm : null;
  const modes = pick ? modesFor(listeners, pick) : [];
  const shownMode = pick ? modeShown(listeners, pick, mode) : null;
  const url = pick && shownMode ? stratumUrlFor(listeners, pick, shownMode) : null;
  const solo = shownMode === 'solo';
  const summary = workersForSummary(workers, typed);

  const addTyped = () => {
    if (!canAddWorker(workers, typed)) return;
    setWorkers([...workers, typed.trim()]);
    setTyped('');
  };

  const startOver = () => {
    setStep(1);
    setAlgorithm(null);
    setMode('pool');
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
            <ChoiceQuestion
              question="Which algorithm will you mine?"
              group="wizard-algorithm"
              options={ALGORITHM_NAMES}
              chosen={pick}
              isAvailable={served}
              onChoose={setAlgorithm}
              layout="flex items-center gap-2 font-semibold"
              option={(name, available) => (
                <>
                  <AlgorithmLogo algorithm={name} className="size-5" />
                  <span className="flex-1">{name}</span>
                  {!available && <span className="text-xs font-normal">Not served yet</span>}
                </>
              )}
            >
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
            </ChoiceQuestion>
            {modes.includes('solo') && (
              <ModeChoice modes={modes} shown={shownMode} onChange={setMode} soloFee={soloFee} />
            )}
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
            <Form onSubmit={addTyped}>
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
            </Form>
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
                <dt className="mb-1 font-medium text-slate-700 dark:text-slate-300">
                  {solo ? 'Stratum URL (solo)' : 'Stratum URL'}
                </dt>
                <dd>
                  {url && (
                    <CopyText
                      text={url}
                      shown={shortStratumUrl(url)}
                      label={solo ? 'Solo stratum URL' : 'Stratum URL'}
                      testId="wizard-url"
                    />
                  )}
                  {solo && (
                    <p className="mt-1 text-xs text-slate-600 dark:text-slate-400" data-testid="wizard-solo-note">
                      {soloSentence(soloFee)}
                    </p>
                  )}
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

const MODE_TEXT: Record<MiningMode, { label: string; hint: string }> = {
  pool: { label: 'Pool (PPS)', hint: 'Every accepted share is paid.' },
  solo: { label: 'Solo', hint: 'Only the blocks you find are paid.' },
};

/**
 * 'Pool (PPS)' or 'Solo', for an algorithm with a solo port (docs/solo.md): the port decides how the workers are
 * paid. Solo comes with one sentence on what it means; a mode the algorithm has no port for is disabled.
 */
function ModeChoice({
  modes,
  shown,
  onChange,
  soloFee,
}: {
  modes: readonly MiningMode[];
  shown: MiningMode | null;
  onChange: (mode: MiningMode) => void;
  soloFee: number | undefined;
}) {
  return (
    <ChoiceQuestion
      question="How do you want to be paid?"
      group="wizard-mode"
      options={['pool', 'solo'] as const}
      chosen={shown}
      isAvailable={(mode) => modes.includes(mode)}
      onChoose={onChange}
      layout="flex flex-col"
      className="mt-4"
      testId="wizard-mode"
      option={(mode) => (
        <>
          <span className="font-semibold">{MODE_TEXT[mode].label}</span>
          <span className="text-xs text-slate-600 dark:text-slate-400">{MODE_TEXT[mode].hint}</span>
        </>
      )}
    >
      {shown === 'solo' && (
        <p className="mt-2 text-sm text-slate-600 dark:text-slate-400" data-testid="wizard-mode-solo-note">
          {soloSentence(soloFee)}
        </p>
      )}
    </ChoiceQuestion>
  );
}

function Step({ active, children }: { active: boolean; children: ReactNode }) {
  return (
    <div className="w-full shrink-0 px-0.5" inert={!active} aria-hidden={!active || undefined}>
      {children}
    </div>
  );
}

/**
 * A wizard question: its options as cards in two columns (test id `${group}-${value}`), each holding a hidden radio
 * button of `group`, outlined when chosen, disabled when not available. `children` stand under the cards.
 */
function ChoiceQuestion<T extends string>({
  question,
  group,
  options,
  chosen,
  isAvailable,
  onChoose,
  layout,
  option,
  className,
  testId,
  children,
}: {
  question: string;
  group: string;
  options: readonly T[];
  chosen: T | null;
  isAvailable: (value: T) => boolean;
  onChoose: (value: T) => void;
  /** Each card's own layout classes (flex row or column, weight). */
  layout: string;
  /** What a card shows. */
  option: (value: T, available: boolean) => ReactNode;
  className?: string;
  testId?: string;
  children?: ReactNode;
}) {
  return (
    <fieldset className={className} data-testid={testId}>
      <legend className="font-semibold text-slate-900 dark:text-white">{question}</legend>
      <div className="mt-3 grid grid-cols-2 gap-2">
        {options.map((value) => {
          const available = isAvailable(value);
          const selected = chosen === value;
          return (
            <label
              key={value}
              data-testid={`${group}-${value}`}
              className={`${layout} rounded-lg border px-3 py-2 text-sm has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-amber-500 ${
                available ? 'cursor-pointer' : 'cursor-not-allowed opacity-50'
              } ${
                selected
                  ? 'border-amber-500 bg-amber-50 dark:bg-amber-500/10'
                  : 'border-slate-200 hover:bg-slate-50 dark:border-slate-700 dark:hover:bg-slate-800'
              }`}
            >
              <input
                type="radio"
                name={group}
                value={value}
                checked={selected}
                disabled={!available}
                onChange={() => onChoose(value)}
                className="sr-only"
              />
              {option(value, available)}
            </label>
          );
        })}
      </div>
      {children}
    </fieldset>
  );
}
