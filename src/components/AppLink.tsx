// An in-app link with Chakra's link look and style props; the carried query is RouteLink's job.
import { Link as ChakraLink, type LinkProps } from '@chakra-ui/react';
import { RouteLink } from './RouteLink';

export function AppLink({ href, children, ...rest }: LinkProps & { href: string }) {
  return (
    <ChakraLink asChild {...rest}>
      <RouteLink href={href}>{children}</RouteLink>
    </ChakraLink>
  );
}
