/** The Lodestone mark: a faceted stone with a magnetic field line. Drawn for this project. */
export function BrandMark({ className = 'size-8', title }: { className?: string; title?: string }) {
  const labelled = title !== undefined;
  return (
    <svg
      viewBox="0 0 32 32"
      className={className}
      role={labelled ? 'img' : undefined}
      aria-label={title}
      aria-hidden={labelled ? undefined : true}
      focusable="false"
    >
      <path
        d="M9 4.5 22.5 3 29.5 12.5 26 26.5 12 29.5 2.5 20 4 9.5Z"
        fill="#1e293b"
        stroke="#f59e0b"
        strokeWidth="1.5"
      />
      <path
        d="M9 4.5 15 14.5 22.5 3M15 14.5 29.5 12.5M15 14.5 12 29.5M15 14.5 2.5 20"
        fill="none"
        stroke="#f59e0b"
        strokeOpacity="0.55"
        strokeWidth="1"
      />
      <path d="M9.5 21.5a7.5 7.5 0 0 1 12.5-7" fill="none" stroke="#fbbf24" strokeWidth="2" strokeLinecap="round" />
    </svg>
  );
}
