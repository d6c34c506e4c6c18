// A lazily loaded image with fixed dimensions (no layout shift in long lists) that turns into a
// grey placeholder when the asset cannot be fetched (product-spec section 8).
import { Box, chakra } from '@chakra-ui/react';
import { memo, useState } from 'react';

const Img = chakra('img', { base: { display: 'block', objectFit: 'cover', bg: 'gray.200' } });

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
    <Img
      src={src}
      alt={alt}
      width={width}
      height={height}
      loading={eager ? 'eager' : 'lazy'}
      decoding="async"
      borderRadius="l2"
      flexShrink={0}
      style={{ width, height }}
      onError={() => setFailedSrc(src)}
    />
  );
});
