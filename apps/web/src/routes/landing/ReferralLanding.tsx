import { useEffect, useRef } from 'react';
import { Navigate } from 'react-router';
import { setReferral } from '../../api/client';
import type { ReferralSource } from './sources';

/** Registers the source, then redirects to "/". A failure is only logged (docs/website.md, Forms and messages). */
export default function ReferralLanding({ source }: { source: ReferralSource }) {
  const sent = useRef(false);
  useEffect(() => {
    // Once per visit, even when React runs the effect twice in development.
    if (sent.current) return;
    sent.current = true;
    setReferral(source).catch((error: unknown) =>
      console.warn(`Could not record the referral source ${source}:`, error),
    );
  }, [source]);
  return <Navigate to="/" replace />;
}
