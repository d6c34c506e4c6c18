// An in-app link that keeps the carried query parameter (product-spec section 2), as a plain
// anchor: the screens that load without Chakra use it directly, AppLink styles it with Chakra.
import type { AnchorHTMLAttributes } from 'react';
import { Link, useSearch } from 'wouter';
import { withCarriedQuery } from '../lib/navigation';

export function RouteLink({
  href,
  ...rest
}: AnchorHTMLAttributes<HTMLAnchorElement> & { href: string }) {
  const search = useSearch();
  return <Link href={withCarriedQuery(href, search)} {...rest} />;
}
