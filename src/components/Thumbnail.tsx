// A lazily loaded image with fixed dimensions (no layout shift in long lists) that turns into a
// grey placeholder when the asset cannot be fetched (product-spec section 8).
import { memo, useState } from 'react';
import styles from './feedback.module.css';

const IMG_STYLE = {
  display: 'block',
  objectFit: 'cover',
  flexShrink: 0,
  background: 'var(--chakra-colors-gray-200)',
  borderRadius: 'var(--chakra-radii-l2)',
} as const;

interface ThumbnailProps {
  src: string | null;
  alt: string;
  width: number;
  height: number;
  /** Eager for the one image a page is about (detail thumbnail). */
  eager?: boolean;
  /** Sizes the box instead of width and height (which still give the aspect ratio). */
  className?: string;
}

export const Thumbnail = memo(function Thumbnail({
  src,
  alt,
  width,
  height,
  eager = false,
  className,
}: ThumbnailProps) {
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  if (!src || failedSrc === src) {
    return (
      <div
        role="img"
        aria-label={alt}
        data-placeholder=""
        className={className ? `${styles.placeholder} ${className}` : styles.placeholder}
        style={className ? { aspectRatio: `${width} / ${height}` } : { width, height }}
      />
    );
  }
  return (
    // The browser needs the width and height attributes to reserve the box before the image
    // arrives.
    <img
      src={src}
      alt={alt}
      width={width}
      height={height}
      loading={eager ? 'eager' : 'lazy'}
      decoding="async"
      className={className}
      style={className ? IMG_STYLE : { ...IMG_STYLE, width, height }}
      onError={() => setFailedSrc(src)}
    />
  );
});
