// The submit button of a profile form: blue, at the start of the row, busy while its request
// runs, and disabled with the reason while offline (issue 8).
import { Button } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { NeedsNetwork } from '../../../components/NeedsNetwork';

export function SubmitButton(props: {
  canSubmit: boolean;
  busy: boolean;
  children: ReactNode;
}): ReactNode {
  return (
    <NeedsNetwork>
      <Button
        type="submit"
        colorPalette="blue"
        alignSelf="flex-start"
        disabled={!props.canSubmit || props.busy}
        loading={props.busy}
      >
        {props.children}
      </Button>
    </NeedsNetwork>
  );
}
