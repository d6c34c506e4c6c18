// An in-app link that keeps the carried query parameter (product-spec section 2).
import { Link as ChakraLink, type LinkProps } from '@chakra-ui/react';
import { Link as RouterLink, useSearch } from 'wouter';
import { withCarriedQuery } from '../lib/navigation';

export function AppLink({ href, children, ...rest }: LinkProps & { href: string }) {
  const search = useSearch();
  return (
    <ChakraLink asChild {...rest}>
      <RouterLink href={withCarriedQuery(href, search)}>{children}</RouterLink>
    </ChakraLink>
  );
}
