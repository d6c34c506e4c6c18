// A lazily loaded image with fixed dimensions (no layout shift in long lists) that turns into a
// grey placeholder when the asset cannot be fetched (product-spec section 8).
import { Box } from '@chakra-ui/react';
import { memo, useState } from 'react';

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
}

export const Thumbnail = memo(function Thumbnail({
  src,
  alt,
  width,
  height,
  eager = false,
}: ThumbnailProps) {
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  if (!src || failedSrc === src) {
    return (
      <Box
        role="img"
        aria-label={alt}
        data-placeholder=""
        bg="gray.300"
        borderRadius="l2"
        flexShrink={0}
        style={{ width, height }}
      />
    );
  }
  return (
    // A plain element: Chakra would take width/height as styles, and the browser needs the
    // attributes to reserve the box before the image arrives.
    <img
      src={src}
      alt={alt}
      width={width}
      height={height}
      loading={eager ? 'eager' : 'lazy'}
      decoding="async"
      style={{ ...IMG_STYLE, width, height }}
      onError={() => setFailedSrc(src)}
    />
  );
});
