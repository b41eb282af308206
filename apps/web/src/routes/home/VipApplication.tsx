import { type ReactNode, useId, useRef, useState } from 'react';
import { ApiError } from '../../api/errors';
import { sendVipApplication } from '../../api/public';
import { Form, FormMessage, inputClass, primaryButtonClass } from '../../components/form';
import { Modal } from '../../components/Modal';
import { RobotCheck, type RobotCheckHandle } from '../../components/RobotCheck';
import {
  DEFAULT_DIAL_INDEX,
  DIAL_CODES,
  MESSAGES,
  type VipErrors,
  type VipField,
  type VipFields,
  validateVip,
  vipFormData,
} from './VipApplicationRules';

/**
 * The dial code selector: as wide as its text (the input's class stretches), never greyed (selects match :read-only).
 */
const dialClass = inputClass
  .split(' ')
  .filter((c) => c !== 'w-full' && !c.includes('read-only:'))
  .join(' ');

const EMPTY: VipFields = { name: '', email: '', dialIndex: DEFAULT_DIAL_INDEX, phone: '', operations: '' };

/**
 * The VIP Application modal of the home page (docs/website.md, VIP Application): the fields are
 * checked first, then the robot check, then the application is sent to POST /v1/email/hashrate.
 * The answer shows as 'Application sent, we will contact you very soon!' (green) or 'Network or
 * server error.' (red). The robot check's token is single-use, so it is reset after every send.
 * Loaded on demand from the hero, so the captcha widget is only downloaded when someone applies.
 */
export default function VipApplication({ onClose }: { onClose: () => void }) {
  const [fields, setFields] = useState<VipFields>(EMPTY);
  const [errors, setErrors] = useState<VipErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [detail, setDetail] = useState<string | null>(null);
  const [sent, setSent] = useState(false);
  const [sending, setSending] = useState(false);
  const [token, setToken] = useState<string | null>(null);
  const robot = useRef<RobotCheckHandle>(null);
  const ids = { name: useId(), email: useId(), dial: useId(), phone: useId(), operations: useId() };

  const set = (key: keyof VipFields) => (event: { target: { value: string } }) => {
    const value = key === 'dialIndex' ? Number(event.target.value) : event.target.value;
    setFields((f) => ({ ...f, [key]: value }));
  };

  const onSubmit = async () => {
    setSent(false);
    setFormError(null);
    setDetail(null);
    const found = validateVip(fields);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    if (!token) {
      setFormError(MESSAGES.captcha);
      return;
    }
    setSending(true);
    try {
      await sendVipApplication(vipFormData(fields, token));
      setSent(true);
      setFields(EMPTY);
    } catch (error) {
      console.error('The VIP application was not sent:', error);
      setFormError(MESSAGES.failed);
      // The form's message is fixed; the server's own reason (a refusal, a rate limit) helps more when it has one.
      if (error instanceof ApiError && error.fromServer) setDetail(error.message);
    } finally {
      setSending(false);
      robot.current?.reset();
    }
  };

  const fieldError = (field: VipField) =>
    errors[field] ? (
      <p
        id={`${ids[field]}-error`}
        data-testid={`vip-error-${field}`}
        className="mt-1 text-sm text-red-700 dark:text-red-400"
      >
        {errors[field]}
      </p>
    ) : null;
  /** What every field's control wears: its id, value and setter, and its error's marks. */
  const control = (field: VipField) => ({
    id: ids[field],
    value: fields[field],
    onChange: set(field),
    'aria-invalid': errors[field] ? true : undefined,
    'aria-describedby': errors[field] ? `${ids[field]}-error` : undefined,
    className: inputClass,
  });
  return (
    <Modal title="VIP Application" onClose={onClose} testId="vip-modal">
      <p className="text-sm text-slate-600 dark:text-slate-400">
        Running a large operation? Tell us about it and we will contact you about dedicated servers, support and terms.
      </p>
      <Form onSubmit={onSubmit} className="mt-4 space-y-4" data-testid="vip-form">
        <LabelledField id={ids.name} error={fieldError('name')} caption="Name">
          <input {...control('name')} autoComplete="name" />
        </LabelledField>
        <LabelledField id={ids.email} error={fieldError('email')} caption="Email">
          <input {...control('email')} type="email" autoComplete="email" />
        </LabelledField>
        <LabelledField
          id={ids.phone}
          error={fieldError('phone')}
          caption={
            <>
              Mobile <span className="font-normal text-slate-500 dark:text-slate-400">(optional)</span>
            </>
          }
        >
          <div className="flex gap-2">
            <label htmlFor={ids.dial} className="sr-only">
              Dial code
            </label>
            <select
              id={ids.dial}
              value={fields.dialIndex}
              onChange={set('dialIndex')}
              data-testid="vip-dial"
              className={`${dialClass} w-auto shrink-0`}
            >
              {DIAL_CODES.map((d, index) => (
                <option key={d.country} value={index}>
                  {d.country} {d.code}
                </option>
              ))}
            </select>
            <input {...control('phone')} type="tel" inputMode="numeric" autoComplete="tel-national" />
          </div>
        </LabelledField>
        <LabelledField id={ids.operations} error={fieldError('operations')} caption="Hashrate">
          <textarea
            {...control('operations')}
            rows={4}
            placeholder="Your operation and its total hashrate per algorithm, e.g. SCRYPT: 40 machines, 640 GH/s"
          />
        </LabelledField>
        <RobotCheck ref={robot} onTokenChange={setToken} />
        <FormMessage error={formError} success={sent ? MESSAGES.sent : null} />
        {detail && (
          <p className="text-sm text-red-700 dark:text-red-400" data-testid="vip-error-detail">
            {detail}
          </p>
        )}
        <button type="submit" className={`${primaryButtonClass} w-full`} disabled={sending} data-testid="vip-submit">
          {sending ? 'Sending…' : 'Submit'}
        </button>
      </Form>
    </Modal>
  );
}

/** A field's label, its control (the children) and its error under it. */
function LabelledField({
  id,
  caption,
  error,
  children,
}: {
  id: string;
  caption: ReactNode;
  error: ReactNode;
  children: ReactNode;
}) {
  return (
    <div>
      <label htmlFor={id} className="mb-1 block text-sm font-medium text-slate-700 dark:text-slate-300">
        {caption}
      </label>
      {children}
      {error}
    </div>
  );
}
