// Stand-in for signed-in screens whose feature has not been built yet; the route exists so
// guards and links behave already.
import { Heading } from '@chakra-ui/react';

export function ComingSoonPage({ title }: { title: string }) {
  return (
    <Heading as="h1" size="2xl">
      {title}
    </Heading>
  );
}
