// Installed on a phone the app runs edge to edge (viewport-fit=cover in index.html): padding that
// adds its side's safe-area inset keeps content off notches and the home indicator. For Chakra
// style props; the CSS modules write the same calc() themselves.
type Side = 'top' | 'right' | 'bottom' | 'left';

/** Chakra spacing token `space` (a whole step such as 4 or 6) plus the inset of `side`. */
export function withInset(space: number, side: Side): string {
  return `calc(var(--chakra-spacing-${space}) + env(safe-area-inset-${side}))`;
}
