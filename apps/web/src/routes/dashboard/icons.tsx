import { Icon, type IconProps, lineIcon } from '../../components/icons';

/**
 * The dashboard's own line icons, drawn with the site's icon frame (components/icons.tsx).
 */
export const WarningIcon = lineIcon(
  <>
    <path d="M10.3 4.2 2.8 17.5A2 2 0 0 0 4.5 20.5h15a2 2 0 0 0 1.7-3L13.7 4.2a2 2 0 0 0-3.4 0Z" />
    <path d="M12 9.5v4.5M12 17.2v.1" />
  </>,
);

export const PlusIcon = lineIcon(<path d="M12 5v14M5 12h14" />);

export const ChevronLeftIcon = lineIcon(<path d="m15 6-6 6 6 6" />);

export const ChevronRightIcon = lineIcon(<path d="m9 6 6 6-6 6" />);

/** A sortable column's state: both arrows faint while unsorted, only the active one when sorted. */
export function SortIcon({ sort, ...props }: IconProps & { sort: 'asc' | 'desc' | null }) {
  return (
    <Icon {...props}>
      {sort !== 'desc' && <path d="m8 10 4-4 4 4" className={sort === 'asc' ? '' : 'opacity-40'} />}
      {sort !== 'asc' && <path d="m8 14 4 4 4-4" className={sort === 'desc' ? '' : 'opacity-40'} />}
    </Icon>
  );
}

export const SearchIcon = lineIcon(
  <>
    <circle cx="11" cy="11" r="6.5" />
    <path d="m16 16 4.5 4.5" />
  </>,
);
