import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { scrollToSection } from '../lib/scroll';

/** Pieces shared by the landing pages: a dark hero whose buttons scroll to sections below it (power bridge, Sats4Soup). */

const heroButton =
  'inline-flex items-center rounded-lg px-6 py-3 text-base font-semibold focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-amber-300';
const heroPrimaryButton = `${heroButton} bg-amber-500 text-slate-950 hover:bg-amber-400`;
const heroSecondaryButton = `${heroButton} border border-white/30 text-white hover:bg-white/10`;

/** A hero button: it scrolls to a section of the page (a ScrollTargetSection's id) or opens another page. */
type HeroAction = { label: string; testId: string; scrollTo: string } | { label: string; to: string };

export const sectionHeadingClass = 'text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl dark:text-white';
export const cardClass =
  'rounded-2xl border border-slate-200 bg-white p-6 shadow-sm dark:border-slate-800 dark:bg-slate-900';

/**
 * The hero: on a dark ground (`background`, the page's own glow) a small line naming the page, the title, a lead
 * paragraph and the buttons (`actions`, the first the main call to action; a scroll stops `scrollOffset` px above its
 * section); `children` follow the buttons. `width` is the page's content width.
 */
export function LandingHero({
  background,
  width,
  eyebrow,
  title,
  lead,
  actions,
  scrollOffset,
  children,
}: {
  background: string;
  width: string;
  eyebrow: string;
  title: string;
  lead: string;
  actions: readonly HeroAction[];
  scrollOffset: number;
  children?: ReactNode;
}) {
  return (
    <section className={`bg-slate-950 ${background} text-white`}>
      <div className={`mx-auto ${width} px-4 py-20 sm:px-6 lg:py-28`}>
        <p className="text-sm font-semibold tracking-widest text-amber-400 uppercase">{eyebrow}</p>
        <h1 className="mt-3 max-w-3xl text-4xl font-bold tracking-tight sm:text-5xl">{title}</h1>
        <p className="mt-6 max-w-2xl text-lg text-slate-300">{lead}</p>
        <div className="mt-10 flex flex-wrap gap-4">
          {actions.map((action, i) => {
            const className = i === 0 ? heroPrimaryButton : heroSecondaryButton;
            return 'to' in action ? (
              <Link key={action.label} to={action.to} className={className}>
                {action.label}
              </Link>
            ) : (
              <button
                key={action.label}
                type="button"
                data-testid={action.testId}
                onClick={() => scrollToSection(action.scrollTo, scrollOffset)}
                className={className}
              >
                {action.label}
              </button>
            );
          })}
        </div>
        {children}
      </div>
    </section>
  );
}

/**
 * A section a hero button scrolls to (lib/scroll.ts, scrollToSection): `id` is the button's target, it can take the
 * focus the scroll moves there (without a focus ring), and its heading, `{id}-title`, names it.
 */
export function ScrollTargetSection({
  id,
  className,
  testId,
  children,
}: {
  id: string;
  className: string;
  testId?: string;
  children: ReactNode;
}) {
  return (
    <section
      id={id}
      tabIndex={-1}
      aria-labelledby={`${id}-title`}
      data-testid={testId}
      className={`${className} outline-none`}
    >
      {children}
    </section>
  );
}
