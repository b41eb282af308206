import type { AlgorithmName } from '@lodestone/domain';
import type { ReactNode } from 'react';

/**
 * One small round mark per algorithm, drawn for Lodestone (24×24). BLAKE2S is mined for Kadena, so
 * its mark is a Kadena-style angular "K" in magenta on black.
 */
const MARKS: Record<AlgorithmName, { background: string; glyph: ReactNode }> = {
  SCRYPT: {
    background: '#4f6fa8',
    glyph: (
      <path
        d="M15.6 8.6c-.8-1-2.1-1.6-3.6-1.6-2.1 0-3.6 1.1-3.6 2.7 0 3.7 7.4 1.9 7.4 5.3 0 1.7-1.6 2.8-3.8 2.8-1.6 0-3-.6-3.9-1.7"
        fill="none"
        stroke="#fff"
        strokeWidth="2"
        strokeLinecap="round"
      />
    ),
  },
  SHA256: {
    background: '#e8a317',
    glyph: (
      <path
        d="M10.2 6.5 8.8 17.5M15.2 6.5l-1.4 11M6.8 10h11M6.2 14h11"
        fill="none"
        stroke="#fff"
        strokeWidth="2"
        strokeLinecap="round"
      />
    ),
  },
  EAGLESONG: {
    background: '#1f8a70',
    glyph: (
      <path
        d="M5.5 13.5c2.5-.4 4.6-1.8 6.5-5 1.9 3.2 4 4.6 6.5 5M8 16.5c1.6-.3 2.9-1 4-2.4 1.1 1.4 2.4 2.1 4 2.4"
        fill="none"
        stroke="#fff"
        strokeWidth="1.9"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    ),
  },
  BLAKE2S: {
    background: '#17131f',
    glyph: (
      <g fill="#e6197d">
        <path d="M7 5.5h2.8v13H7Z" />
        <path d="M10.6 12 16.2 5.5h3.2L13.8 12Z" />
        <path d="M10.6 12h3.2l5.6 6.5h-3.2Z" opacity="0.75" />
      </g>
    ),
  },
  X11: {
    background: '#1c75bc',
    glyph: (
      <g fill="none" stroke="#fff" strokeLinecap="round">
        <path d="m8 8 8 8M16 8l-8 8" strokeWidth="2.2" />
        <circle cx="12" cy="12" r="7.2" strokeWidth="1" strokeOpacity="0.6" />
      </g>
    ),
  },
  KHEAVYHASH: {
    background: '#1a9e8f',
    glyph: (
      <path
        d="M8.5 6v12M16.5 6l-5.5 6 5.5 6"
        fill="none"
        stroke="#fff"
        strokeWidth="2.6"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    ),
  },
};

export function AlgorithmLogo({ algorithm, className = 'size-6' }: { algorithm: AlgorithmName; className?: string }) {
  const mark = MARKS[algorithm];
  return (
    <svg
      viewBox="0 0 24 24"
      className={`shrink-0 ${className}`}
      role="img"
      aria-label={`${algorithm} logo`}
      focusable="false"
    >
      <circle cx="12" cy="12" r="11.5" fill={mark.background} stroke="#94a3b8" strokeOpacity="0.35" />
      {mark.glyph}
    </svg>
  );
}
