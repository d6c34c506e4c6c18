// Icons of the browse and search screens, inline like Icons.tsx (no icon library).
import { Icon as BaseIcon, type IconProps } from './Icons';

function Icon(props: IconProps) {
  return <BaseIcon width="18" height="18" {...props} />;
}

export const BackArrowIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M19 12H5m7 7-7-7 7-7" />
  </Icon>
);
export const RefreshIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M21 12a9 9 0 1 1-3-6.7L21 8" />
    <path d="M21 3v5h-5" />
  </Icon>
);
export const ClearIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M18 6 6 18M6 6l12 12" />
  </Icon>
);
export const TrashIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M3 6h18M8 6V4h8v2m-9 0 1 14h8l1-14" />
  </Icon>
);
export const PlayIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="m7 4 13 8-13 8z" />
  </Icon>
);
