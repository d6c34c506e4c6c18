// A button with Chakra's looks in a CSS module, for the parts that render without Chakra's style
// runtime: the first screens (no Chakra at all) and the signed-in shell and video list (the
// most rendered parts, issue 8). Same loading behaviour as Chakra's (disabled, spinner over the
// label). Elsewhere use Chakra's Button.
import type { ButtonHTMLAttributes } from 'react';
import styles from './PlainButton.module.css';

export type PlainButtonVariant = 'solid' | 'outline' | 'neutral' | 'ghost' | 'onDark';
export type PlainButtonSize = 'md' | 'sm' | 'xs';

interface Look {
  variant?: PlainButtonVariant;
  size?: PlainButtonSize;
  /** Square, for a button that shows only an icon (give it an aria-label). */
  icon?: boolean;
}

/** The class names of a look, also for links that look like buttons. */
export function plainButtonClass({ variant = 'solid', size = 'md', icon = false }: Look = {}) {
  const classes = [styles.button, styles[variant]];
  if (size !== 'md') classes.push(styles[size]);
  if (icon) classes.push(styles.icon);
  return classes.join(' ');
}

interface PlainButtonProps extends ButtonHTMLAttributes<HTMLButtonElement>, Look {
  loading?: boolean;
}

export function PlainButton({
  variant,
  size,
  icon,
  loading = false,
  disabled,
  className,
  children,
  type = 'button',
  ...rest
}: PlainButtonProps) {
  const look = plainButtonClass({ variant, size, icon });
  return (
    <button
      type={type}
      {...rest}
      className={className ? `${look} ${className}` : look}
      disabled={loading || disabled}
      data-loading={loading ? '' : undefined}
    >
      {loading ? (
        <>
          <span className={styles.spinner} />
          <span className={styles.hidden}>{children}</span>
        </>
      ) : (
        children
      )}
    </button>
  );
}
