// A part built with Chakra, fetched when it first renders, with Chakra fetched beside it and
// around it. Screens and parts that render no Chakra component load none of it (issue 8: a start
// of the video list parses and runs no Chakra code at all).
import { lazy, type ComponentType } from 'react';

export const loadChakraScope = () => import('../app/chakra-scope');

export function lazyWithChakra<P extends object>(load: () => Promise<ComponentType<P>>) {
  return lazy(async () => {
    const [Part, { ChakraScope }] = await Promise.all([load(), loadChakraScope()]);
    function WithChakra(props: P) {
      return (
        <ChakraScope>
          <Part {...props} />
        </ChakraScope>
      );
    }
    return { default: WithChakra };
  });
}
