import type { PoolProfitsResponse } from '@lodestone/contract';
import { type FormEvent, useMemo, useState } from 'react';
import { type Column, DataTable } from '../../components/DataTable';
import { Field, inputClass, primaryButtonClass } from '../../components/form';
import { LoadState } from '../../components/LoadState';
import { Section } from '../../components/sections';
import {
  btcPriceOf,
  CALCULATOR_DEFAULTS,
  type CalculatorFields,
  calculate,
  FALLBACK_BTC_PRICE,
  formatResult,
  HASHRATE_UNIT_CHOICES,
  type PeriodResult,
  parseCalculatorFields,
  rateFieldText,
  resultUnits,
} from './calculator';

/** The results: on a phone each period is a card headed by its name. */
function resultColumns(unit: string): Column<PeriodResult>[] {
  return [
    { label: 'Period', rowHeader: true, phone: 'primary', cell: (r) => r.label },
    { label: 'Revenue', testId: 'calc-revenue', cell: (r) => formatResult(r.revenue, unit) },
    { label: 'Costs', testId: 'calc-costs', cell: (r) => formatResult(r.costs, unit) },
    {
      label: 'Profit',
      className: 'font-semibold',
      testId: 'calc-profit',
      cell: (r) => (
        <span className={r.profit < 0 ? 'text-red-700 dark:text-red-400' : undefined}>
          {formatResult(r.profit, unit)}
        </span>
      ),
    },
  ];
}

/** Selects match :read-only, which greys the shared input style; the unit selector is an ordinary control. */
const selectClass = inputClass
  .split(' ')
  .filter((c) => !c.includes('read-only:'))
  .join(' ');

interface Calculated {
  results: PeriodResult[];
  unit: string;
}

/**
 * The Mining Calculator (docs/website.md, Stats and Profitability). Its Rate starts at the pool's profitability of the
 * last 24 hours; prices and unit factors come with the same answer. Results are computed when Calculate is pressed (the
 * form's own submission, intercepted) and shown only from the first press on; they describe the values as they were at
 * that press.
 */
export function Calculator({ profits, error }: { profits: PoolProfitsResponse | undefined; error: Error | null }) {
  return (
    <Section title="Mining Calculator" testId="calculator">
      {profits ? (
        <CalculatorForm profits={profits} />
      ) : (
        <LoadState isPending={!error} error={error} what="calculator's rates and prices" testId="calculator" />
      )}
    </Section>
  );
}

function CalculatorForm({ profits }: { profits: PoolProfitsResponse }) {
  const units = useMemo(() => resultUnits(profits.prices, profits.fiat_prices), [profits]);
  const btc = btcPriceOf(profits.prices);
  const [fields, setFields] = useState<CalculatorFields>(() => ({
    hashrate: CALCULATOR_DEFAULTS.hashrate,
    rate: rateFieldText(profits.profit_24h),
    power: CALCULATOR_DEFAULTS.power,
    fee: CALCULATOR_DEFAULTS.fee,
    energyCost: CALCULATOR_DEFAULTS.energyCost,
  }));
  const [unitId, setUnitId] = useState<string>(CALCULATOR_DEFAULTS.resultUnit);
  const [hashrateExponent, setHashrateExponent] = useState(String(profits.calculator_units_factor));
  const [calculated, setCalculated] = useState<Calculated | null>(null);
  const unit = units.find((u) => u.id === unitId) ?? units[0];

  /** A number field's value and its setter, as its props. */
  const bind = (key: keyof CalculatorFields) => ({
    value: fields[key],
    onChange: (event: { target: { value: string } }) => setFields((f) => ({ ...f, [key]: event.target.value })),
  });

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    // The page does the arithmetic; the form is never sent anywhere.
    event.preventDefault();
    const input = parseCalculatorFields(fields);
    if (!input || !unit) return;
    setCalculated({
      unit: unit.id,
      results: calculate(input, {
        calculatorFactor: Number(hashrateExponent),
        rateFactor: profits.profit_rate_units_factor,
        btcPrice: btc.price,
        unitPrice: unit.usdPrice,
      }),
    });
  };

  const notes: string[] = [];
  if (btc.fallback) {
    notes.push(
      `The pool has not recorded a Bitcoin price yet, so results in other units assume 1 BTC = ${FALLBACK_BTC_PRICE.toLocaleString('en-US')} USD.`,
    );
  }
  if (unit?.id === 'EUR' && unit.fallback) {
    notes.push('No euro exchange rate has been recorded yet, so EUR results are shown at 1 EUR = 1 USD.');
  }

  return (
    <>
      <form onSubmit={onSubmit} className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3" data-testid="calculator-form">
        <NumberField label="Hash Rate" {...bind('hashrate')} placeholder="1000.0" step="any" testId="calc-hashrate" />
        <Select
          label="Hash Rate Unit"
          options={HASHRATE_UNIT_CHOICES.map((u) => ({ value: String(u.exponent), label: u.label }))}
          value={hashrateExponent}
          onChange={setHashrateExponent}
          testId="calc-hashrate-unit"
        />
        <NumberField label="Rate" unit={profits.profit_rate_units} {...bind('rate')} step="any" testId="calc-rate" />
        <NumberField label="Power Usage (W)" {...bind('power')} placeholder="1200" step="any" testId="calc-power" />
        <NumberField label="Fee (%)" {...bind('fee')} step="0.01" testId="calc-fee" />
        <NumberField label="Energy Cost (USD/kWh)" {...bind('energyCost')} step="0.00001" testId="calc-energy" />
        <Select
          label="Result Units"
          options={units.map((u) => ({ value: u.id, label: u.id }))}
          value={unit?.id ?? unitId}
          onChange={setUnitId}
          testId="calc-unit"
        />
        <div className="sm:col-span-2 lg:col-span-3">
          <button type="submit" className={primaryButtonClass} data-testid="calculate">
            Calculate
          </button>
        </div>
      </form>

      {calculated && (
        <DataTable
          testId="calculator-results"
          className="mt-6"
          caption={`Estimated revenue, costs and profit in ${calculated.unit}`}
          columns={resultColumns(calculated.unit)}
          rows={calculated.results}
          rowKey={(r) => r.label}
          rowTestId="calculator-row"
          empty="—"
        />
      )}

      {notes.map((note) => (
        <p key={note} className="mt-4 text-sm text-amber-800 dark:text-amber-300" data-testid="calculator-note">
          {note}
        </p>
      ))}
      <p className="mt-4 text-xs text-slate-500 dark:text-slate-400" data-testid="calculator-disclaimer">
        These figures are estimates only: they are approximate and will change with the pool's profitability, network
        difficulty and coin prices. They are not a promise of earnings.
      </p>
    </>
  );
}

function NumberField({
  label,
  unit,
  value,
  onChange,
  placeholder,
  step,
  testId,
}: {
  label: string;
  unit?: string;
  value: string;
  onChange: (event: { target: { value: string } }) => void;
  placeholder?: string;
  step: string;
  testId: string;
}) {
  const caption = (
    <>
      {label}
      {unit && <span className="font-normal text-slate-500 dark:text-slate-400"> ({unit})</span>}
    </>
  );
  return (
    <Field label={caption}>
      {(id) => (
        <input
          id={id}
          type="number"
          inputMode="decimal"
          required
          step={step}
          value={value}
          onChange={onChange}
          placeholder={placeholder}
          data-testid={testId}
          className={inputClass}
        />
      )}
    </Field>
  );
}

function Select({
  label,
  options,
  value,
  onChange,
  testId,
}: {
  label: string;
  options: { value: string; label: string }[];
  value: string;
  onChange: (value: string) => void;
  testId: string;
}) {
  return (
    <Field label={label}>
      {(id) => (
        <select
          id={id}
          value={value}
          onChange={(event) => onChange(event.target.value)}
          data-testid={testId}
          className={selectClass}
        >
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}
